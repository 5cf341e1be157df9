import TrustSupport
import TrustX509

/// One SCT the CT check met, and what trustd makes of it.
public struct SCTEvidence: Hashable, Sendable {
    /// Where an SCT came from.
    public enum Source: String, Hashable, Sendable {
        /// The certificate's SCT list extension (signed over the precertificate).
        case embedded
        /// The TLS signed_certificate_timestamp extension (signed over the certificate).
        case tlsExtension = "tls-extension"
        /// The stapled OCSP response's SCT extension (signed over the certificate).
        case ocspResponse = "ocsp-response"
    }

    /// What became of it, in the order trustd asks.
    public enum Outcome: Hashable, Sendable {
        /// Its signature verifies with a log trustd trusts, and the log's dates allow it.
        case verified
        /// It does not decode as an SCT (trustd skips it).
        case unreadable(String)
        /// Its version is not v1.
        case unsupportedVersion(UInt8)
        /// Its timestamp is after the evaluation time.
        case inTheFuture
        /// No log of the list has its log ID.
        case unknownLog
        /// The log is in the list, but Apple does not trust it (pending or rejected).
        case logNotTrusted(CTLog.State)
        /// Delivered beside the certificate from a retired log: only embedded SCTs of retired logs count.
        case retiredLogDelivered
        /// Dated after the log became read-only.
        case afterReadOnly(Timestamp)
        /// The certificate expires outside the log's temporal interval.
        case outsideTemporalInterval
        /// The log's key does not decode.
        case logKeyUnusable(String)
        /// The signature does not verify with the log's key.
        case signatureInvalid
        /// The signature cannot be checked (an algorithm trustd does not accept).
        case signatureUnsupported(String)
        /// An embedded SCT with no issuer on the path to rebuild the precertificate with.
        case noPrecertificate
        /// Not checked: the evaluation's work bound ran out.
        case notChecked

        /// Whether it counts towards the policy.
        public var isVerified: Bool { self == .verified }

        /// Words for a report.
        public var text: String {
            switch self {
            case .verified: "signature verified"
            case .unreadable(let why): "not an SCT (\(why)); ignored"
            case .unsupportedVersion(let v): "version \(v) is not v1; ignored"
            case .inTheFuture: "dated after the evaluation time"
            case .unknownLog: "no log in the list has this log ID"
            case .logNotTrusted(let s): "the log is \(s.rawValue): Apple does not trust its SCTs"
            case .retiredLogDelivered: "the log is retired: only embedded SCTs from retired logs count"
            case .afterReadOnly(let t): "dated after the log became read-only (\(t.rfc3339))"
            case .outsideTemporalInterval: "the certificate expires outside the log's temporal interval"
            case .logKeyUnusable(let why): "the log's key cannot be used (\(why))"
            case .signatureInvalid: "signature does not verify with the log's key"
            case .signatureUnsupported(let why): "signature not checked: \(why)"
            case .noPrecertificate: "no issuer on the path to rebuild the precertificate with"
            case .notChecked: "not checked: the evaluation's work bound ran out"
            }
        }
    }

    /// Where it came from.
    public var source: Source
    /// The log ID (empty when unreadable).
    public var logID: [UInt8]
    /// Its timestamp (nil when unreadable).
    public var timestamp: Timestamp?
    /// The log's description, when the list has the log.
    public var logName: String?
    /// The log's operator, when the list has the log.
    public var operatorName: String?
    /// The log's state, when the list has the log.
    public var logState: CTLog.State?
    /// What became of it.
    public var outcome: Outcome
    /// Whether it counted towards the policy: from a currently trusted log, or, embedded, from a
    /// log retired after the SCT and the issuance (once qualified). Set by the policy.
    public var counted = false

    /// Creates the evidence of one SCT (the engine's CT policy fills it in).
    package init(
        source: Source, logID: [UInt8], timestamp: Timestamp? = nil, logName: String? = nil,
        operatorName: String? = nil, logState: CTLog.State? = nil, outcome: Outcome, counted: Bool = false
    ) {
        self.source = source
        self.logID = logID
        self.timestamp = timestamp
        self.logName = logName
        self.operatorName = operatorName
        self.logState = logState
        self.outcome = outcome
        self.counted = counted
    }

    /// One line: source, log, operator, time and outcome.
    public var summary: String {
        let log = logName ?? (logID.isEmpty ? "unreadable" : "log " + Base64.encode(logID))
        let who = operatorName.map { " (\($0))" } ?? ""
        let when = timestamp.map { " at \($0.rfc3339)" } ?? ""
        return
            "\(source.rawValue): \(log)\(who)\(when): \(outcome.text)\(counted ? "" : outcome.isVerified ? ", not counted" : "")"
    }
}

/// Apple's CT policy eras: the embedded-SCT count by certificate lifetime changed for
/// certificates issued from 2021-04-21 (Security, trust/trustd/CertificateTransparency.m,
/// verify_embedded_sct_policy_v1 and _v2).
public enum CTPolicyEra: String, Hashable, Sendable {
    /// Before 2021-04-21: by whole months of lifetime, under 15 → 2, to 27 → 3, to 39 → 4, else 5.
    case beforeApril2021 = "before-2021-04-21"
    /// From 2021-04-21: by days, at most 180 → 2, at most 825 → 3, else 4.
    case fromApril2021 = "from-2021-04-21"
}

/// What the CT policy found for one path: trustd's SecPolicyCheckCT, run for every path whatever
/// the policy, its result kSecTrustCertificateTransparency.
public struct CTAssessment: Hashable, Sendable {
    /// Every SCT met: embedded, then TLS extension, then OCSP response.
    public var scts: [SCTEvidence] = []
    /// Whether the path is CT-qualified.
    public var qualified = false
    /// How it qualified: by SCTs delivered beside the certificate or by embedded ones; nil when not.
    public var qualifiedBy: SCTEvidence.Source?
    /// The era of the leaf's issuance date.
    public var era: CTPolicyEra = .fromApril2021
    /// The embedded SCTs from distinct logs the leaf's lifetime asks for in that era.
    public var requiredEmbedded = 0
    /// Distinct once- or currently-qualified logs with a verified embedded SCT.
    public var qualifiedEmbeddedLogs = 0
    /// Distinct currently trusted logs with a verified SCT from any source.
    public var currentLogs = 0
    /// Distinct operators of the logs that counted (reported; trustd does not count operators).
    public var operators: [String] = []
    /// The list the SCTs were checked against.
    public var logListSource = ""
    /// Where the path is CT-qualified by trustd's code but Apple's published policy would not
    /// qualify it: advice, never a different verdict (`CTPublishedPolicy`); empty otherwise.
    public var publishedPolicyAdvice: [CTPolicyAdvice] = []

    /// An assessment with nothing counted yet.
    package init() {}
}
