import TrustCore
import TrustSupport
import TrustX509

/// Two evaluations compared: `trustx diff` prints it, and the explorer's compare view draws it.
///
/// Certificates are paired by position (leaf with leaf, first intermediate with first
/// intermediate), which is how a renewal or a misconfigured node differs; a pair is the same
/// certificate (same DER), the same key in a new certificate (same SubjectPublicKeyInfo), or
/// different (D212). Side A is the first evaluation, side B the second.
public struct ChainComparison: Sendable {
    /// How two certificates at the same position relate.
    public enum Relation: String, Hashable, Sendable, CaseIterable {
        /// The same DER on both sides.
        case same = "same certificate"
        /// Another certificate over the same SubjectPublicKeyInfo: a renewal that kept the key,
        /// which a key pin does not notice.
        case sameKey = "same key, new certificate"
        /// Another certificate with another key.
        case different = "different"
        /// Only side A has a certificate at this position.
        case onlyA = "only in A"
        /// Only side B has a certificate at this position.
        case onlyB = "only in B"
    }

    /// One field that differs between two certificates.
    public struct FieldDifference: Hashable, Sendable {
        /// The field's name as the reports spell it (`notAfter`, `subjectAltNames`).
        public var field: String
        /// Side A's value, as text from the certificate (not yet sanitised).
        public var a: String
        /// Side B's value, as text from the certificate (not yet sanitised).
        public var b: String
    }

    /// One position of a chain or path.
    public struct Pair: Sendable {
        /// The position, 0 for the leaf.
        public var index: Int
        /// How the two certificates relate.
        public var relation: Relation
        /// Side A's certificate, nil when only B has one here.
        public var a: Certificate?
        /// Side B's certificate, nil when only A has one here.
        public var b: Certificate?
        /// The fields that differ; empty for the same certificate or a one-sided position.
        public var differences: [FieldDifference]
    }

    /// A step whose status differs between the two sides (or that only one side has).
    public struct StepDifference: Hashable, Sendable {
        /// The step's identifier (`hostname`, `validity`).
        public var id: String
        /// The certificate position the step is about, nil for a path-level step.
        public var certificate: Int?
        /// Side A's status identifier, `absent` when A has no such step.
        public var a: String
        /// Side B's status identifier, `absent` when B has no such step.
        public var b: String
    }

    /// Side A's evaluation.
    public let a: Evaluation
    /// Side B's evaluation.
    public let b: Evaluation
    /// What each side is called (the targets as given, or the explorer's target names).
    public let labels: (String, String)
    /// The chains as sent, position by position.
    public let presented: [Pair]
    /// The paths as built, position by position.
    public let path: [Pair]
    /// The steps whose status differs, A's order first, then the steps only B has.
    public let steps: [StepDifference]

    /// The most certificates a side is compared over; a chain is bounded by the loader well below this.
    public static let maximumPositions = 64

    /// Compares two evaluations.
    /// - Parameters:
    ///   - a: Side A.
    ///   - b: Side B.
    ///   - labels: What each side is called, A's first.
    public init(a: Evaluation, b: Evaluation, labels: (String, String)) {
        self.a = a
        self.b = b
        self.labels = labels
        presented = Self.align(a.presented, b.presented)
        path = Self.align(a.path.certificates, b.path.certificates)
        steps = Self.stepDifferences(a.steps, b.steps)
    }

    /// Whether both sides are trusted alike with the same OSStatus.
    public var sameVerdict: Bool { a.verdict.trusted == b.verdict.trusted && a.verdict.osstatus == b.verdict.osstatus }

    /// Whether both sides sent a leaf with the same SubjectPublicKeyInfo.
    public var sameLeafKey: Bool {
        guard let x = a.presented.first, let y = b.presented.first else { return false }
        return x.spkiSHA256 == y.spkiSHA256
    }

    /// Whether `diff` exits 0: the same verdict and the same leaf key.
    public var same: Bool { sameVerdict && sameLeafKey }

    static func align(_ x: [Certificate], _ y: [Certificate]) -> [Pair] {
        let count = min(max(x.count, y.count), maximumPositions)
        return (0..<count).map { i in
            let ca = i < x.count ? x[i] : nil
            let cb = i < y.count ? y[i] : nil
            guard let ca, let cb else {
                return Pair(index: i, relation: ca == nil ? .onlyB : .onlyA, a: ca, b: cb, differences: [])
            }
            let relation: Relation =
                ca.sha256 == cb.sha256 ? .same : (ca.spkiSHA256 == cb.spkiSHA256 ? .sameKey : .different)
            return Pair(
                index: i, relation: relation, a: ca, b: cb,
                differences: relation == .same ? [] : fieldDifferences(ca, cb))
        }
    }

    /// The fields an on-call engineer compares, in the order a certificate lists them.
    static func fieldDifferences(_ x: Certificate, _ y: Certificate) -> [FieldDifference] {
        func names(_ c: Certificate) -> String {
            (c.subjectAltNames ?? []).map { "\($0.typeName):\($0.valueText)" }.joined(separator: ", ")
        }
        func key(_ c: Certificate) -> String {
            let k = c.publicKey
            let size = k.bits > 0 ? " \(k.bits) bits" : ""
            return "\(k.type.label)\(size) sha256//\(c.spkiPin)"
        }
        func extensions(_ c: Certificate) -> String {
            c.extensions.map { "\($0.oid.name)\($0.critical ? " (critical)" : "")" }.joined(separator: ", ")
        }
        let fields: [(String, (Certificate) -> String)] = [
            ("serial", { hexString($0.serialNumber) }),
            ("subject", { $0.subject.description }),
            ("issuer", { $0.issuer.description }),
            ("notBefore", { $0.notBefore.rfc3339 }),
            ("notAfter", { $0.notAfter.rfc3339 }),
            ("subjectAltNames", names),
            ("key", key),
            ("signatureAlgorithm", { $0.signatureAlgorithm.name }),
            ("extensions", extensions),
        ]
        var out = fields.compactMap { name, value -> FieldDifference? in
            let (va, vb) = (value(x), value(y))
            return va == vb ? nil : FieldDifference(field: name, a: va, b: vb)
        }
        // Same extensions by name but other contents: say which.
        if !out.contains(where: { $0.field == "extensions" }) {
            let changed = x.extensions.filter { e in y.extensions.first { $0.oid == e.oid }?.value != e.value }
            if !changed.isEmpty {
                let names = changed.map(\.oid.name).joined(separator: ", ")
                out.append(FieldDifference(field: "extension contents", a: names, b: names))
            }
        }
        return out
    }

    /// Steps keyed by their id and certificate position, compared by status.
    static func stepDifferences(_ x: [Step], _ y: [Step]) -> [StepDifference] {
        func key(_ s: Step) -> String { "\(s.id.rawValue)#\(s.certificate.map(String.init) ?? "-")" }
        var out: [StepDifference] = []
        var seen: Set<String> = []
        for s in x {
            let k = key(s)
            guard seen.insert(k).inserted else { continue }
            let other = y.first { key($0) == k }
            if other?.status.identifier != s.status.identifier {
                out.append(
                    StepDifference(
                        id: s.id.rawValue, certificate: s.certificate, a: s.status.identifier,
                        b: other?.status.identifier ?? "absent"))
            }
        }
        for s in y where seen.insert(key(s)).inserted {
            out.append(
                StepDifference(id: s.id.rawValue, certificate: s.certificate, a: "absent", b: s.status.identifier))
        }
        return out
    }

    /// `trusted`, or `not trusted: NAME (OSSTATUS)`: one side's verdict in the diff's words.
    public static func verdictText(_ e: Evaluation) -> String {
        e.verdict.trusted ? "trusted" : "not trusted: \(e.verdict.osstatusName) (\(e.verdict.osstatus))"
    }
}
