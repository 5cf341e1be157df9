import ATSModel
import TLSProbe
import TrustCore
import TrustOptions
import TrustSupport
import TrustX509

/// The `trustx check` command line that reproduces an explorer state, and the certificate files
/// it needs that exist only in the session.
public struct ReproCommand: Sendable {
    /// The command, shell-quoted.
    public var command: String
    /// Anchors made in the session, to be written for `--anchor` (in the anchor directory, by
    /// absolute path, when one is given).
    public var files: [FileToWrite]

    /// Builds the command for `target` under `toggles`.
    /// - Parameters:
    ///   - target: The selected target.
    ///   - toggles: The settings.
    ///   - anchors: The custom anchors in force.
    ///   - now: The session's "now" (an evaluation at "now" gives no `--at`).
    ///   - program: How the command names trustx: `trustx` when it is on PATH, else an absolute path.
    ///   - anchorDirectory: The absolute directory session-made anchors are written to; nil for
    ///     the current directory.
    ///   - workingDirectory: The directory relative paths were given in (the explorer's start-up
    ///     directory): every file the command names is named by its absolute path, so the
    ///     command runs from any directory (D293). Nil leaves paths as given.
    ///   - ctLogsFile: The `--ct-logs` file of the session, if any.
    /// - Returns: The command and the files it names that must be written first.
    public static func make(
        target: ExplorerTarget, toggles: Toggles, anchors: [AnchorEntry], now: Timestamp, program: String = "trustx",
        anchorDirectory: String? = nil, workingDirectory: String? = nil, ctLogsFile: String? = nil
    ) -> ReproCommand {
        let absolute = { (path: String) in absolutePath(path, in: workingDirectory) }
        var args = [program, "check"]
        var files: [FileToWrite] = []
        // Each setting is written as its declaration spells it (D380).
        let context = SettingContext(
            isServer: target.server != nil, targetHost: target.host, now: now,
            path: { absolutePath($0, in: workingDirectory) })
        func add(_ setting: CheckSetting) { args += setting.arguments(toggles.check, context) }
        switch target.source {
        case .server(let t, let o):
            args.append(target.location)
            if let c = t.connectTo { args += ["--connect-to", c.description] }
            switch t.sni {
            case .automatic: break
            case .none: args.append("--no-sni")
            case .name(let n): args += ["--sni", n]
            }
            let defaults = ProbeOptions()
            if o.timeout != defaults.timeout {
                let ms = o.timeout.components.seconds * 1000 + o.timeout.components.attoseconds / 1_000_000_000_000_000
                args += ["--timeout", ms % 1000 == 0 ? "\(ms / 1000)" : "\(Double(ms) / 1000)"]
            }
            [CheckSetting.tlsMinimum, .tlsMaximum].forEach(add)
            switch o.clientIdentity {
            case .pkcs12(let path, _)?: args += ["--client-cert", absolute(path)]
            case .pem(let cert, let key, _)?: args += ["--client-cert", absolute(cert), "--client-key", absolute(key)]
            case nil: break
            }
            if let s = o.startTLS, !target.location.lowercased().hasPrefix(s.rawValue + "://") {
                args += ["--starttls", s.rawValue]
            }
            if case .http(let proxy) = o.proxy { args += ["--proxy", proxy.description] }
            add(.noAIA)
        case .files(_, let paths):
            args.append("--chain")
            args += paths.map(absolute)
        }
        // A file is named when every certificate read from it is still an anchor; otherwise
        // (and for certificates made anchors in the session) each is written out on its own.
        let fileMembers = Dictionary(
            grouping: (target.anchorEntries + toggles.addedAnchors).compactMap { e in e.file.map { ($0, e.certificate) }
            },
            by: \.0)
        let inForce = Set(anchors.map(\.certificate))
        var named = Set<String>()
        for entry in anchors {
            if let file = entry.file, fileMembers[file]?.allSatisfy({ inForce.contains($0.1) }) == true {
                if named.insert(file).inserted { args += ["--anchor", absolute(file)] }
                continue
            }
            let c = entry.certificate
            let hex = hexString(c.sha256.prefix(4)).lowercased()
            // Named by content, so the same certificate is always the same file.
            let name = "trustx-anchor-\(AppState.fileName(for: c))-\(hex).pem"
            let path = anchorDirectory.map { $0 + "/" + name } ?? name
            // The file is written where `path` says; the command names it absolutely.
            if named.insert(path).inserted {
                var file = FileToWrite(path: path, contents: PEM.encode(c.der), replace: true)
                file.createsDirectory = anchorDirectory != nil
                files.append(file)
                args += ["--anchor", absolute(path)]
            }
        }
        if !anchors.isEmpty { CheckSetting.anchors.forEach(add) }
        CheckSetting.written.forEach(add)
        if let ctLogsFile { args += ["--ct-logs", absolute(ctLogsFile)] }
        if let password = target.password { args += ["--password", password] }
        return ReproCommand(command: args.map(shellQuoted).joined(separator: " "), files: files)
    }

    /// `path` as an absolute path: unchanged when it is one (or no directory is known), else
    /// joined to `directory` with any leading `./` dropped.
    public static func absolutePath(_ path: String, in directory: String?) -> String {
        guard let directory, !path.isEmpty, !path.hasPrefix("/") else { return path }
        var rest = Substring(path)
        while rest.hasPrefix("./") { rest = rest.dropFirst(2).drop { $0 == "/" } }
        if rest.isEmpty || rest == "." { return directory }
        return (directory.hasSuffix("/") ? directory : directory + "/") + rest
    }

    /// The word as a POSIX shell reads it back: bare when it holds only safe characters,
    /// otherwise in single quotes.
    public static func shellQuoted(_ word: String) -> String {
        let safe = word.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9")
                || "_./:@%+=,-".unicodeScalars.contains(c)
        }
        if safe && !word.isEmpty { return word }
        var quoted = "'"
        for c in word { quoted += c == "'" ? "'\\''" : String(c) }
        return quoted + "'"
    }
}
