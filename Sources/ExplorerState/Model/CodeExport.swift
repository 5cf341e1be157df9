import TLSProbe
import TrustCore
import TrustExport
import TrustSupport
import TrustX509

/// The settings of an explorer state as code (`X`): what `trustx export` writes for the same
/// settings, built from what the explorer holds (the anchors in force, the pins, the policy, the
/// built path for classifying pins) rather than from a command line.
public struct CodeExport: Sendable {
    /// What to export as.
    public enum Format: String, Hashable, Sendable, CaseIterable {
        /// A URLSessionDelegate implementing the settings: anchors, policy, evaluate, then pins.
        case swift
        /// An NSPinnedDomains fragment for the app's Info.plist, with the pins in force.
        case plist
        /// The curl command that checks the server with the same anchors and pins.
        case curl
        /// The openssl commands that recompute each pin and verify the chain.
        case openssl

        /// The file extension of the written file.
        var fileExtension: String {
            switch self {
            case .swift: "swift"
            case .plist: "plist"
            case .curl, .openssl: "sh"
            }
        }
    }

    /// The exported text and where it is written.
    public var file: FileToWrite
    /// The anchors, written as one PEM file beside it, which the commands name.
    public var anchors: [FileToWrite]
    /// Text short enough to show in full (the commands); nil for files to open.
    public var shown: String?
    /// One sentence on what the export does and does not carry.
    public var note: String

    /// The file an export names for the anchors in force: named after their content, so exports
    /// with other anchors never replace it and the same anchors always give the same file.
    static func anchorsFile(_ anchors: [Certificate], in directory: String?) -> String {
        let pem = anchors.map { PEM.encode($0.der) }.joined()
        return place("trustx-export-anchors-\(contentTag(pem)).pem", in: directory)
    }

    /// The first eight hex digits of the SHA-256 of `text`, which names a written file.
    static func contentTag(_ text: String) -> String {
        hexString(Digest.sha256(Array(text.utf8)).prefix(4)).lowercased()
    }

    /// `name` inside `directory` (absolute), or alone (the current directory) when there is none.
    static func place(_ name: String, in directory: String?) -> String {
        directory.map { $0 + "/" + name } ?? name
    }

    /// The export settings the state describes for `target`.
    static func settings(_ state: AppState, target: ExplorerTarget) -> ExportSettings {
        let t = state.toggles
        let anchors = state.effectiveAnchors.map(\.certificate)
        // Files are named absolutely, as in the copied command, so the export works from anywhere.
        var s = ExportSettings(
            t.check, targetHost: target.host, path: { ReproCommand.absolutePath($0, in: state.workingDirectory) })
        s.keepsSystemAnchors = !t.anchorsOnly || anchors.isEmpty
        if !anchors.isEmpty {
            s.anchorFiles = [
                ExportFile(path: anchorsFile(anchors, in: state.exportDirectory), certificates: anchors, isPEM: true)
            ]
        }
        if let (probe, _) = target.server {
            s.host = probe.host
            s.port = Int(probe.port)
            s.connectTo = probe.connectTo.map { ExportEndpoint(host: $0.host, port: Int($0.port)) }
        } else {
            // Files are offered no TLS versions.
            s.minimumTLSVersion = .tls1_2
            s.maximumTLSVersion = nil
        }
        if let e = state.evaluation {
            s.path = e.path.certificates
            s.presented = e.presented
            s.rootInOneStoreOnly = e.storeComparison?.differingRoot
        }
        return s
    }

    /// Exports the state's settings for `target` as `format`.
    /// - Parameters:
    ///   - format: What to export as.
    ///   - state: The explorer's state (settings, anchors, evaluation).
    ///   - target: The selected target.
    /// - Returns: The file to write, the anchors file, and what to show.
    public static func make(_ format: Format, state: AppState, target: ExplorerTarget) -> CodeExport {
        let s = settings(state, target: target)
        let text: String
        let note: String
        var shown: String?
        switch format {
        case .swift:
            text = SwiftDelegateExport.render(s)
            note =
                "A URLSessionDelegate doing what this screen does: anchors, policy, evaluation, then pins, recording why it cancels (docs/export.md)."
        case .plist:
            text = PinnedDomainsExport.infoPlist(s)
            note =
                "An Info.plist with NSPinnedDomains for the pins in force, leaf or CA by where each matched the built path (L loads it back); keep a backup pin (docs/ats.md)."
        case .curl:
            text = CurlExport.render(s)
            shown = text
            note = "curl's exit status: 0 trusted, 60 not trusted, 90 no pin matched (docs/export.md)."
        case .openssl:
            text = OpenSSLExport.render(s)
            note =
                "Each pin recomputed by openssl from the server or the files, and the chain verified (docs/export.md)."
        }
        // Named after the content as well as the target: an earlier export with other settings
        // is never replaced, and exporting the same settings again rewrites the same bytes.
        let directory = state.exportDirectory
        let name = place(
            "trustx-export-\(AppState.fileName(for: target.name))-\(contentTag(text)).\(format.fileExtension)",
            in: directory)
        var file = FileToWrite(path: name, contents: text)
        file.createsDirectory = directory != nil
        var anchorFiles: [FileToWrite] = []
        if let anchorsFile = s.anchorFiles.first {
            var written = FileToWrite(path: anchorsFile.path, contents: s.anchors.map { PEM.encode($0.der) }.joined())
            written.createsDirectory = directory != nil
            anchorFiles.append(written)
        }
        return CodeExport(file: file, anchors: anchorFiles, shown: shown, note: note)
    }
}
