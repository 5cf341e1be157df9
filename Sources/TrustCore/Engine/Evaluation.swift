import ATSModel
import TrustX509

/// The result of evaluating one chain under one set of settings.
public struct Evaluation: Sendable {
    /// The certificates as presented, leaf first.
    public var presented: [Certificate]
    /// The path that was built and reported (the trusted one, or the best failed one).
    public var path: BuiltPath
    /// Every step, in check order.
    public var steps: [Step]
    /// The verdict.
    public var verdict: Verdict
    /// The settings evaluated under.
    public var settings: TrustSettings
    /// How many candidate paths were examined.
    public var candidatePaths: Int
    /// The complete candidate paths examined and not reported, in the order they were examined,
    /// each with the steps that failed on it: why the reported path was preferred. At most the
    /// settings' path limit (`EvaluationLimits.paths`).
    public var rejectedPaths: [RejectedPath] = []
    /// Where the presented certificates came from: a server (the default) or files.
    public var presentedSource: CertificateSource = .presented
    /// The connection the chain came from, when it came from one.
    public var connection: ConnectionReport?
    /// Presented certificates that could not be read, left out of path building (why, each).
    public var unreadable: [String] = []
    /// What ATS requires of the connection to the host, when the settings evaluate ATS.
    public var atsPolicy: ATSHostPolicy?
    /// Advice on the pins (`--pin` and NSPinnedDomains) for this path: what breaks at rotation.
    public var pinAdvice: [PinAdvice] = []
    /// The chain under Apple's store and this machine's side by side, when the caller compared them.
    public var storeComparison: StoreComparison?

    /// The failed steps.
    public var failures: [Step] { steps.filter { $0.status == .failed } }

    /// Steps about certificate `index` of the path.
    public func steps(forCertificate index: Int) -> [Step] { steps.filter { $0.certificate == index } }
}
