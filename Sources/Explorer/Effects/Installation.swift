#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where this trustx is and where it keeps the files its copied commands name: looked up once at
/// start-up, so a copied command runs as-is from any directory.
public enum Installation {
    /// `trustx` when that name on PATH is this very executable; otherwise the executable's
    /// absolute path (after `swift run` or a release build trustx is not on PATH).
    public static func commandName() -> String {
        guard let exe = realPath("/proc/self/exe") else { return "trustx" }
        let path = getenv("PATH").map { String(cString: $0) } ?? ""
        for directory in path.split(separator: ":").prefix(256) where directory.first == "/" {
            if realPath(directory + "/trustx") == exe { return "trustx" }
        }
        return exe
    }

    /// The directory for anchors made in a session: `$XDG_STATE_HOME/trustx/anchors`, else
    /// `$HOME/.local/state/trustx/anchors`, else `/tmp/trustx-UID/anchors`; always absolute.
    public static func anchorDirectory() -> String { stateDirectory() + "/anchors" }

    /// The directory `X` writes its exports to, beside the anchors: `…/trustx/exports`.
    public static func exportDirectory() -> String { stateDirectory() + "/exports" }

    /// The directory trustx was started in, absolute; nil when it cannot be read (removed).
    public static func workingDirectory() -> String? {
        guard let path = getcwd(nil, 0) else { return nil }
        defer { free(path) }
        return String(cString: path)
    }

    /// `$XDG_STATE_HOME/trustx`, else `$HOME/.local/state/trustx`, else `/tmp/trustx-UID`.
    static func stateDirectory() -> String {
        func absolute(_ name: String) -> String? {
            guard let value = getenv(name).map({ String(cString: $0) }), value.first == "/" else { return nil }
            return value.hasSuffix("/") && value.count > 1 ? String(value.dropLast()) : value
        }
        if let state = absolute("XDG_STATE_HOME") { return state + "/trustx" }
        if let home = absolute("HOME") { return (home == "/" ? "" : home) + "/.local/state/trustx" }
        return "/tmp/trustx-\(getuid())"
    }

    /// The canonical absolute path of an existing file, nil when it does not exist.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}
