#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The one way trustx writes a file (D322): the bytes go to a new temporary file beside the
/// target, created with O_CREAT | O_EXCL | O_NOFOLLOW so that nothing planted at any name is
/// followed or reused, and that file then takes the target's name. A symbolic link planted at
/// the target is replaced (or, when existing files are kept, refused), never written through;
/// a reader sees the old file or the new one, never half of one.
public enum FileWriter {
    /// What to do when the target already exists.
    public enum Existing: Sendable {
        /// Refuse: the file is kept and `FileWriteError.exists` thrown (the default everywhere a
        /// user names the file).
        case keep
        /// Replace it (files trustx names itself, by content, and the lab's own files).
        case replace
    }

    /// Writes `bytes` to `path`.
    /// - Parameters:
    ///   - bytes: The contents.
    ///   - path: Where; a symbolic link at this name is never followed.
    ///   - mode: The new file's permissions (before the umask).
    ///   - existing: Whether an existing file (or link) at `path` is replaced or refused.
    public static func write(
        _ bytes: [UInt8], to path: String, mode: mode_t = 0o644, existing: Existing
    ) throws(FileWriteError) {
        let temporary = temporaryName(for: path)
        let fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode)
        guard fd >= 0 else { throw .system(path: path, errno: errno) }
        var offset = 0
        while offset < bytes.count {
            let n = bytes.withUnsafeBytes { systemWrite(fd, $0.baseAddress! + offset, $0.count - offset) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                let why = n < 0 ? errno : ENOSPC
                close(fd)
                unlink(temporary)
                throw .system(path: path, errno: why)
            }
            offset += n
        }
        if close(fd) != 0 {
            let why = errno
            unlink(temporary)
            throw .system(path: path, errno: why)
        }
        switch existing {
        case .replace:
            // rename(2) replaces a link at `path` itself, not what it points to.
            if rename(temporary, path) != 0 {
                let why = errno
                unlink(temporary)
                throw .system(path: path, errno: why)
            }
        case .keep:
            // link(2) fails with EEXIST for anything at `path`, a dangling link included: the
            // check and the naming are one step, so no race lets a file be replaced.
            if link(temporary, path) == 0 {
                unlink(temporary)
                return
            }
            let linkErrno = errno
            if linkErrno == EEXIST {
                unlink(temporary)
                throw .exists(path: path)
            }
            // A file system without hard links: look, then rename (the window is the caller's
            // own directory's, and the link above covers every usual file system).
            var info = stat()
            if lstat(path, &info) == 0 {
                unlink(temporary)
                throw .exists(path: path)
            }
            if rename(temporary, path) != 0 {
                let why = errno
                unlink(temporary)
                throw .system(path: path, errno: why)
            }
        }
    }

    /// Writes `text` as UTF-8; see `write(_:to:mode:existing:)`.
    public static func write(
        _ text: String, to path: String, mode: mode_t = 0o644, existing: Existing
    ) throws(FileWriteError) {
        try write(Array(text.utf8), to: path, mode: mode, existing: existing)
    }

    /// A fresh name in the target's directory, so that the rename stays on one file system.
    static func temporaryName(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let base = slash.map { String(path[path.index(after: $0)...]) } ?? path
        let tag = String(UInt64.random(in: 0...UInt64.max), radix: 36)
        return directory + "." + String(base.prefix(100)) + ".\(getpid()).\(tag).tmp"
    }

    private static func systemWrite(_ fd: Int32, _ p: UnsafeRawPointer, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, p, count)
        #else
            Darwin.write(fd, p, count)
        #endif
    }

}

/// Why `FileWriter` did not write a file.
public enum FileWriteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Something is at the path already and existing files are kept.
    case exists(path: String)
    /// The system refused (no such folder, no permission, a full disk), with errno's value.
    case system(path: String, errno: Int32)

    /// One line: the path and why, for a message.
    public var description: String {
        switch self {
        case .exists(let path): return "\(path) exists; trustx does not replace it"
        case .system(let path, _): return "cannot write \(path): \(reason)"
        }
    }

    /// strerror's text for a system refusal; empty for `exists`.
    public var reason: String {
        guard case .system(_, let code) = self else { return "" }
        guard let s = strerror(code) else { return "error \(code)" }
        return String(cString: s)
    }
}
