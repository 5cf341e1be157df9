import TrustCore
import TrustSupport
import TrustX509

// `trustx diff`'s two formats: the text for a terminal and the JSON document.
extension ChainComparison {
    /// The text report; every certificate field is sanitised.
    public var text: String {
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
    public var json: JSONValue {
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
