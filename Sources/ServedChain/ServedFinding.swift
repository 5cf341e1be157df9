import TrustCore
import TrustX509

/// One thing about how a chain was served that a client other than Apple's may pay for: bytes
/// sent for nothing, an order strict clients refuse, a certificate only an AIA fetch supplied.
/// A value, with the certificates concerned and one line saying which clients fail and why.
public struct ServedFinding: Sendable, Equatable {
    /// What was found; the raw value is the JSON report's `kind` (docs/json-report.md).
    public enum Kind: String, Sendable, CaseIterable {
        /// The path's self-signed root was sent: clients use their own copy.
        case rootSent = "root-sent"
        /// The path's certificates were not sent leaf first, each followed by its issuer.
        case wrongOrder = "wrong-order"
        /// A certificate was sent twice.
        case duplicate = "duplicate"
        /// A certificate no path uses was sent.
        case unused = "unused"
        /// A certificate no path uses was sent, and it has expired (an old cross-sign).
        case expiredExtra = "expired-extra"
        /// A certificate of the path was not sent: only an AIA caIssuers fetch supplied it.
        case aiaFilled = "aia-filled"
        /// The certificates take more bytes than a server sends in its first round trip.
        case oversized = "oversized"
    }

    /// One certificate a finding concerns.
    public struct Concerned: Sendable, Equatable {
        /// Its index in the chain as sent (or read), nil for a certificate that was not sent.
        public var presentedIndex: Int?
        /// Its index in the built path, nil when the path does not use it.
        public var pathIndex: Int?
        /// The certificate.
        public var certificate: Certificate

        /// Creates one.
        public init(presentedIndex: Int?, pathIndex: Int?, certificate: Certificate) {
            self.presentedIndex = presentedIndex
            self.pathIndex = pathIndex
            self.certificate = certificate
        }

        /// `#2` for a sent certificate, `[1]` (its place in the path) for one that was not.
        public var label: String {
            if let presentedIndex { return "#\(presentedIndex)" }
            return pathIndex.map { "[\($0)]" } ?? "?"
        }
    }

    /// What was found.
    public var kind: Kind
    /// The certificates concerned, in the order the explanation names them.
    public var certificates: [Concerned]
    /// One line: what it costs and which clients fail, with its source.
    public var explanation: String

    /// Creates a finding.
    public init(kind: Kind, certificates: [Concerned], explanation: String) {
        self.kind = kind
        self.certificates = certificates
        self.explanation = explanation
    }
}
