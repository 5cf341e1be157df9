import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// Two evaluations compared: what `trustx diff` prints. Certificates are paired by position
/// (leaf with leaf, first intermediate with first intermediate), which is how a renewal or a
/// misconfigured node differs; a pair is the same certificate (same DER), the same key in a new
/// certificate (same SubjectPublicKeyInfo), or different (D212).
struct ChainComparison {
    /// How two certificates at the same position relate.
    enum Relation: String {
        case same = "same certificate"
        case sameKey = "same key, new certificate"
        case different = "different"
        case onlyA = "only in A"
        case onlyB = "only in B"
    }

    /// One field that differs between two certificates.
    struct FieldDifference {
        var field: String
        var a: String
        var b: String
    }

    /// One position of a chain or path.
    struct Pair {
        var index: Int
        var relation: Relation
        var a: Certificate?
        var b: Certificate?
        var differences: [FieldDifference]
    }

    /// A step whose status differs between the two sides (or that only one side has).
    struct StepDifference {
        var id: String
        var certificate: Int?
        var a: String
        var b: String
    }

    let a: Evaluation
    let b: Evaluation
    let labels: (String, String)
    let presented: [Pair]
    let path: [Pair]
    let steps: [StepDifference]

    /// The most certificates a side is compared over; a chain is bounded by the loader well below this.
    static let maximumPositions = 64

    init(a: Evaluation, b: Evaluation, labels: (String, String)) {
        self.a = a
        self.b = b
        self.labels = labels
        presented = Self.align(a.presented, b.presented)
        path = Self.align(a.path.certificates, b.path.certificates)
        steps = Self.stepDifferences(a.steps, b.steps)
    }

    var sameVerdict: Bool { a.verdict.trusted == b.verdict.trusted && a.verdict.osstatus == b.verdict.osstatus }

    var sameLeafKey: Bool {
        guard let x = a.presented.first, let y = b.presented.first else { return false }
        return x.spkiSHA256 == y.spkiSHA256
    }

    /// Whether `diff` exits 0: the same verdict and the same leaf key.
    var same: Bool { sameVerdict && sameLeafKey }

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

    static func verdictText(_ e: Evaluation) -> String {
        e.verdict.trusted ? "trusted" : "not trusted: \(e.verdict.osstatusName) (\(e.verdict.osstatus))"
    }

    /// The text report; every certificate field is sanitised.
    var text: String {
        func clean(_ s: String) -> String { TerminalSanitizer.sanitize(s) }
        var out = "A  \(clean(InputExcerpt.quote(labels.0)))  \(Self.verdictText(a))\n"
        out += "B  \(clean(InputExcerpt.quote(labels.1)))  \(Self.verdictText(b))\n\n"
        out += "Verdict   \(sameVerdict ? "same" : "differs")\n"
        out += "Leaf key  \(sameLeafKey ? "same" : "different")\n"
        for (title, pairs) in [("Chain as sent", presented), ("Path as built", path)] {
            out += "\n\(title)\n"
            if pairs.isEmpty { out += "  (empty on both sides)\n" }
            for p in pairs {
                let name = clean((p.a ?? p.b).map(\.subject.description) ?? "")
                out += "  [\(p.index)] \(p.relation.rawValue)  \(name)\n"
                for d in p.differences {
                    out += "      \(d.field)\n        A  \(clean(d.a))\n        B  \(clean(d.b))\n"
                }
            }
        }
        out += "\nSteps whose status differs\n"
        if steps.isEmpty { out += "  none\n" }
        for s in steps {
            let position = s.certificate.map { "[\($0)] " } ?? ""
            out += "  \(position)\(s.id)  A \(s.a)  B \(s.b)\n"
        }
        return out
    }

    /// The JSON document: both verdicts, the comparison, and both full reports.
    var json: JSONValue {
        func pairs(_ list: [Pair]) -> JSONValue {
            .array(
                list.map { p in
                    .object([
                        ("index", .int(p.index)),
                        ("relation", .string(p.relation.rawValue)),
                        ("a", .string(p.a.map { hexString($0.sha256) })),
                        ("b", .string(p.b.map { hexString($0.sha256) })),
                        (
                            "differences",
                            .array(
                                p.differences.map {
                                    .object([("field", .string($0.field)), ("a", .string($0.a)), ("b", .string($0.b))])
                                })
                        ),
                    ])
                })
        }
        return .object([
            ("schema", .int(JSONReport.schemaVersion)),
            ("sameVerdict", .bool(sameVerdict)),
            ("sameLeafKey", .bool(sameLeafKey)),
            ("presented", pairs(presented)),
            ("path", pairs(path)),
            (
                "steps",
                .array(
                    steps.map {
                        .object([
                            ("id", .string($0.id)), ("certificate", .int($0.certificate)), ("a", .string($0.a)),
                            ("b", .string($0.b)),
                        ])
                    })
            ),
            ("a", .object([("side", .string(labels.0)), ("report", JSONReport.document(a))])),
            ("b", .object([("side", .string(labels.1)), ("report", JSONReport.document(b))])),
        ])
    }
}
