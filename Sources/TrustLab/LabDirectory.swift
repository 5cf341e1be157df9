import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The folder the lab writes its files into: a private temporary folder removed on stop, or a
/// folder the user named, kept.
final class LabDirectory: @unchecked Sendable {
    // @unchecked: `written` is mutated only while the lab starts (one thread) and read by remove(), which the lab calls once.
    /// The folder's path.
    let path: String
    /// Whether the folder and its files stay after the lab stops.
    let keep: Bool
    private var written: [String] = []
    private var removed = false

    private init(path: String, keep: Bool) {
        self.path = path
        self.keep = keep
    }

    /// A new private folder (mode 0700, from mkdtemp) under `$TMPDIR` or /tmp, removed on stop.
    static func temporary() throws(LabError) -> LabDirectory {
        var base = "/tmp"
        if let tmp = getenv("TMPDIR"), tmp.pointee != 0 { base = String(cString: tmp) }
        while base.count > 1 && base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/trustx-lab-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw .system(operation: "mkdtemp in \(base)", errno: errno)
        }
        return LabDirectory(path: String(cString: made), keep: false)
    }

    /// The folder at `path`, created with mode 0700 when missing; its files are kept.
    static func output(_ path: String) throws(LabError) -> LabDirectory {
        if mkdir(path, 0o700) != 0 && errno != EEXIST {
            throw .system(operation: "mkdir \(path)", errno: errno)
        }
        var info = stat()
        guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else {
            throw .system(operation: "using \(path) as the output folder", errno: ENOTDIR)
        }
        return LabDirectory(path: path, keep: true)
    }

    /// Writes `bytes` to `name` (no slashes) with mode 0600, replacing an older file, and returns
    /// the full path. O_NOFOLLOW: a symbolic link planted in a shared output folder is not followed.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) throws(LabError) -> String {
        let file = path + "/" + name
        do {
            try FileWriter.write(bytes, to: file, mode: 0o600, existing: .replace)
        } catch .system(_, let code) {
            throw .system(operation: "writing \(file)", errno: code)
        } catch {
            throw .system(operation: "writing \(file)", errno: EEXIST)
        }
        if !written.contains(file) { written.append(file) }
        return file
    }

    /// Writes text; see `write(_:_:)`.
    @discardableResult
    func write(_ name: String, _ text: String) throws(LabError) -> String { try write(name, Array(text.utf8)) }

    /// The files written so far.
    var files: [String] { written }

    /// Removes the files and the folder unless they are kept. Idempotent.
    func remove() {
        guard !keep, !removed else { return }
        removed = true
        for file in written { unlink(file) }
        if rmdir(path) == 0 { return }
        // Someone put more files into our private folder: remove what is directly in it.
        guard let dir = opendir(path) else { return }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafePointer(to: &entry.pointee.d_name) {
                String(cString: UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(dir)
        for name in names { unlink(path + "/" + name) }
        rmdir(path)
    }
}
