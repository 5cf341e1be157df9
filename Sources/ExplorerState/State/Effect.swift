import ATSModel
import TLSProbe
import TrustCore
import TrustLab
import TrustX509

/// Work `reduce` asks for; the executor runs it off the UI thread and answers with an `Action`.
public enum Effect: Sendable {
    /// Start the built-in lab; answers `labStarted` or `labFailed`.
    case startLab(LabOptions)
    /// Connect to a server; answers `connected`.
    case connect(ConnectRequest)
    /// Evaluate a chain; answers `evaluated`.
    case evaluate(EvaluateRequest)
    /// List the names in a directory that start with a prefix; answers `completions`.
    case listDirectory(request: Int, path: String)
    /// Read certificates from a file; answers `anchorsLoaded`. A relative path that names no
    /// file is looked up in `fallbackDirectory` too (the lab's directory), by absolute path.
    case loadAnchors(path: String, password: String?, fallbackDirectory: String? = nil)
    /// Read an Info.plist's NSAppTransportSecurity; answers `atsLoaded`.
    case loadATSPlist(path: String)
    /// Fetch OCSP responses, else CRLs, for a built path (bounded fetches over plain HTTP);
    /// answers `revocationFetched`.
    case fetchRevocation(request: Int, path: [Certificate], timeout: Duration)
    /// Write files (path, contents), never replacing one that exists unless `replace`; answers
    /// `filesWritten` with `message` on success.
    case writeFiles([FileToWrite], message: String)
    /// Make the chain to serve for an evaluation (evaluating it alone, without AIA) and write it
    /// to a new file, never replacing one; answers `filesWritten`, with why nothing was written.
    case writeServedChain(path: String, evaluation: Evaluation)
    /// Put text on the terminal's clipboard (OSC 52). The driver does this itself, on the UI
    /// thread that owns the terminal; no answer.
    case copyToClipboard(String)
    /// Resolve a target's host to its addresses; answers `resolved`.
    case resolve(target: Int, host: String, timeout: Duration)
    /// Connect to every address of a watched target and evaluate each; answers `watched`.
    case watchRound(WatchRoundRequest)
    /// Tick every `every` until stopped; each tick answers `watchTick`.
    case startWatchTimer(timer: Int, every: Duration)
    /// Stop a watch's timer; no answer.
    case stopWatchTimer(timer: Int)
    /// Find where the verdict changes under the evaluation's settings (the time prompt's
    /// strip); answers `timelineMade`.
    case timeline(request: Int, Evaluation)
}

/// A file an effect writes.
public struct FileToWrite: Hashable, Sendable {
    /// Where.
    public var path: String
    /// What.
    public var contents: String
    /// Whether an existing file may be replaced (reports, commands); certificates never replace.
    public var replace: Bool
    /// Whether missing directories above it are created (owner-only), for the anchor directory.
    public var createsDirectory = false

    /// Creates a file to write.
    public init(path: String, contents: String, replace: Bool = true) {
        self.path = path
        self.contents = contents
        self.replace = replace
    }
}

/// A connection to make.
public struct ConnectRequest: Sendable {
    /// Identifies the answer: only the latest request's answer is used.
    public var id: Int
    /// The server.
    public var target: ProbeTarget
    /// How to connect.
    public var options: ProbeOptions
    /// Whether to fetch missing intermediates from AIA URLs.
    public var fetchAIA: Bool
    /// Custom anchors, where AIA fetching stops.
    public var anchors: [Certificate]
    /// The system store, where AIA fetching stops.
    public var systemStore: (any IssuerSource)?
    /// ATS's requirements for the host when an ATS configuration is loaded: the handshake then
    /// offers what the app would.
    public var atsPolicy: ATSHostPolicy? = nil
}

/// An evaluation to run.
public struct EvaluateRequest: Sendable {
    /// Identifies the answer: only the latest request's answer is used.
    public var id: Int
    /// The presented chain, leaf first.
    public var chain: [Certificate]
    /// The settings.
    public var settings: TrustSettings
    /// The connection the chain came from, attached to the evaluation.
    public var connection: ConnectionReport?
    /// Whether the chain came from files rather than a server.
    public var fromFiles: Bool
}
