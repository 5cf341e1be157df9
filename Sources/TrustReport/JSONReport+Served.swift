import ServedChain
import TrustCore
import TrustSupport

extension JSONReport {
    /// How the chain was served (`served`, docs/json-report.md): one object per finding, an
    /// empty list when it was served cleanly.
    static func served(_ e: Evaluation) -> JSONValue {
        .array(
            ServedChainAnalysis.findings(e).map { f in
                .object([
                    ("kind", .string(f.kind.rawValue)),
                    (
                        "certificates",
                        .array(
                            f.certificates.map {
                                .object([
                                    ("presented", .int($0.presentedIndex)),
                                    ("path", .int($0.pathIndex)),
                                    ("subject", .string($0.certificate.subject.description)),
                                    ("sha256", .string(ReportFormatting.hex($0.certificate.sha256))),
                                ])
                            })
                    ),
                    ("explanation", .string(f.explanation)),
                ])
            })
    }
}
