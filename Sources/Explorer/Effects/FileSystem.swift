import ExplorerState
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The explorer's few file operations: completing a typed path and writing a file.
enum FileSystem {
    /// At most this many directory entries are read for one completion.
    static let maximumEntries = 10_000

    /// Paths that complete `typed`: the entries of its directory that start with its last
    /// component, directories with a trailing `/`, sorted, hidden files only when asked for.
    static func completions(of typed: String) -> [String] {
        let slash = typed.lastIndex(of: "/")
        let directory = slash.map { String(typed[...$0]) } ?? ""
        let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        guard let dir = opendir(directory.isEmpty ? "." : directory) else { return [] }
        defer { closedir(dir) }
        var out: [String] = []
        var read = 0
        while let entry = readdir(dir), read < maximumEntries {
            read += 1
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard name != "." && name != "..", name.hasPrefix(prefix) else { continue }
            if name.hasPrefix(".") && !prefix.hasPrefix(".") { continue }
            var path = directory + name
            var st = stat()
            if stat(path, &st) == 0 && (st.st_mode & S_IFMT) == S_IFDIR { path += "/" }
            out.append(path)
        }
        return out.sorted()
    }

    /// Writes `file`; the reason it could not, nil on success.
    static func write(_ file: FileToWrite) -> String? {
        if file.createsDirectory, let slash = file.path.lastIndex(of: "/"), slash != file.path.startIndex {
            if let why = makeDirectories(String(file.path[..<slash])) { return "cannot write \(file.path): \(why)" }
        }
        // A file the user named is never replaced (`w`, `x`); the files trustx names by content
        // (`y`'s anchors, `X`'s exports) are rewritten with the same bytes. Either way through a
        // new file renamed into place, never through a link planted at the name (D322).
        do {
            try FileWriter.write(file.contents, to: file.path, existing: file.replace ? .replace : .keep)
        } catch .exists {
            return "cannot write \(file.path): it exists, and trustx does not replace a file; give another name"
        } catch {
            return "cannot write \(file.path): \(error.reason)"
        }
        return nil
    }

    /// `mkdir -p` with owner-only permissions; the reason it failed, nil on success.
    static func makeDirectories(_ path: String) -> String? {
        var prefix = path.first == "/" ? "" : "."
        // A path has few components; the bound keeps a hostile one from looping long.
        for component in path.split(separator: "/", omittingEmptySubsequences: true).prefix(64) {
            prefix += "/" + component
            if mkdir(prefix, 0o700) != 0 && errno != EEXIST { return String(cString: strerror(errno)) }
        }
        return nil
    }
}
