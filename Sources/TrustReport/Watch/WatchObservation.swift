import TrustCore
import TrustSupport

/// What a watch keeps of one evaluation: enough to tell, round after round, whether the server
/// now sends another leaf, another key, other intermediates or gets another verdict, and nothing
/// that grows with the chain beyond one digest per certificate.
public struct WatchSummary: Hashable, Sendable {
    /// Whether the evaluation (and the connection, where there was one) succeeded.
    public var trusted: Bool
    /// Apple's OSStatus for the verdict; 0 when trusted.
    public var osstatus: Int32
    /// The OSStatus's name, such as `errSecCertificateExpired`.
    public var osstatusName: String
    /// The URLError a URLSession task would fail with, when it would.
    public var urlError: Int?
    /// The leaf certificate's SHA-256 in lowercase hex; empty when no certificate arrived.
    public var leafSHA256: String
    /// The SHA-256 of the leaf's SubjectPublicKeyInfo in lowercase hex: equal across a renewal
    /// that kept the key.
    public var leafSPKISHA256: String
    /// The SHA-256 of every certificate as the server sent it, leaf first, in lowercase hex.
    public var chainSHA256: [String]
    /// When the leaf expires.
    public var leafNotAfter: Timestamp?
    /// With `--expires-within`: the first instant within the window at which the chain, trusted
    /// at the evaluation, is not trusted; nil without the option or outside the window (D466).
    public var failsFrom: Timestamp?

    /// A summary from its parts.
    /// - Parameters:
    ///   - trusted: Whether the evaluation succeeded.
    ///   - osstatus: Apple's OSStatus (0 when trusted).
    ///   - osstatusName: The OSStatus's name.
    ///   - urlError: The URLError, if a task would fail with one.
    ///   - leafSHA256: The leaf's SHA-256, lowercase hex.
    ///   - leafSPKISHA256: The leaf key's SPKI SHA-256, lowercase hex.
    ///   - chainSHA256: Every certificate's SHA-256 as sent, leaf first.
    ///   - leafNotAfter: The leaf's notAfter.
    public init(
        trusted: Bool, osstatus: Int32, osstatusName: String, urlError: Int?, leafSHA256: String,
        leafSPKISHA256: String, chainSHA256: [String], leafNotAfter: Timestamp?
    ) {
        self.trusted = trusted
        self.osstatus = osstatus
        self.osstatusName = osstatusName
        self.urlError = urlError
        self.leafSHA256 = leafSHA256
        self.leafSPKISHA256 = leafSPKISHA256
        self.chainSHA256 = chainSHA256
        self.leafNotAfter = leafNotAfter
    }

    /// The summary of an evaluation.
    /// - Parameters:
    ///   - evaluation: The evaluation of what the server sent.
    ///   - trusted: Overrides the verdict's own answer, for a connection that failed after the
    ///     chain was evaluated (its verdict may say trusted while the check did not succeed).
    public init(_ evaluation: Evaluation, trusted: Bool? = nil) {
        let verdict = evaluation.verdict
        let leaf = evaluation.presented.first
        self.init(
            trusted: trusted ?? verdict.trusted, osstatus: verdict.osstatus, osstatusName: verdict.osstatusName,
            urlError: verdict.urlError, leafSHA256: leaf.map { hexString($0.sha256) } ?? "",
            leafSPKISHA256: leaf.map { hexString($0.spkiSHA256) } ?? "",
            chainSHA256: evaluation.presented.map { hexString($0.sha256) }, leafNotAfter: leaf?.notAfter)
    }

    /// Whether two summaries carry the same verdict: trusted or not, and the same codes.
    public func sameVerdict(as other: WatchSummary) -> Bool {
        trusted == other.trusted && osstatus == other.osstatus && urlError == other.urlError
    }
}

/// What one connection to one address gave: an evaluation, or a failure before there was one.
public enum WatchOutcome: Hashable, Sendable {
    /// The server answered and its chain was evaluated.
    case evaluated(WatchSummary)
    /// No evaluation: the name did not resolve, the connection or handshake failed. The message
    /// may quote the server and must be sanitised before it is shown.
    case failed(String)

    /// The summary, when there was an evaluation.
    public var summary: WatchSummary? {
        if case .evaluated(let s) = self { return s }
        return nil
    }

    /// The failure's message, when there was no evaluation.
    public var failureMessage: String? {
        if case .failed(let m) = self { return m }
        return nil
    }
}

/// One target seen at one address at one time.
public struct WatchObservation: Hashable, Sendable {
    /// The target as the user named it (`pool.trustx.test:8443`).
    public var target: String
    /// The address connected to (`127.0.0.2:8443`); nil when none was reached, as when the name
    /// did not resolve.
    public var address: String?
    /// When the connection was made.
    public var time: Timestamp
    /// What it gave.
    public var outcome: WatchOutcome

    /// An observation.
    /// - Parameters:
    ///   - target: The target as named.
    ///   - address: The address connected to, or nil when none was reached.
    ///   - time: When.
    ///   - outcome: What it gave.
    public init(target: String, address: String?, time: Timestamp, outcome: WatchOutcome) {
        self.target = target
        self.address = address
        self.time = time
        self.outcome = outcome
    }
}
