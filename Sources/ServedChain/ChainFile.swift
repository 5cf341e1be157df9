import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Writes the chain to serve to the file the user named (D443): through `FileWriter`, so the
/// PEM goes to a new file beside it (mode 0644 before the umask) renamed into place, and a link
/// planted at the name is replaced, never written through. A file there is replaced (the
/// command is made to be run again); a directory is refused.
public enum ChainFile {
    /// Writes `text` to `path`.
    /// - Throws: `FileWriteError.system` with EISDIR for a directory, or what the writing met.
    public static func write(_ text: String, to path: String) throws(FileWriteError) {
        var info = stat()
        // lstat: a link is replaced, whatever it points to; only a real directory is refused.
        if lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR {
            throw .system(path: path, errno: EISDIR)
        }
        try FileWriter.write(text, to: path, mode: 0o644, existing: .replace)
    }
}
