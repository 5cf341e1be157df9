import CTModel
import TrustCore
import TrustSupport

extension JSONReport {
    /// The CT step's evidence: the policy's figures and every SCT (docs/json-report.md).
    static func scts(_ a: CTAssessment) -> JSONValue {
        .object([
            ("qualified", .bool(a.qualified)),
            ("qualifiedBy", .string(a.qualifiedBy.map { $0 == .embedded ? "embedded" : "delivered" })),
            ("era", .string(a.era.rawValue)),
            ("requiredEmbedded", .int(a.requiredEmbedded)),
            ("qualifiedEmbeddedLogs", .int(a.qualifiedEmbeddedLogs)),
            ("currentLogs", .int(a.currentLogs)),
            ("operators", .array(a.operators.map { .string($0) })),
            ("logList", .string(a.logListSource)),
            (
                "publishedPolicyAdvice",
                .array(
                    a.publishedPolicyAdvice.map {
                        .object([("kind", .string($0.kind.rawValue)), ("message", .string($0.message))])
                    })
            ),
            (
                "list",
                .array(
                    a.scts.map { s in
                        .object([
                            ("source", .string(s.source.rawValue)),
                            ("logID", .string(s.logID.isEmpty ? nil : Base64.encode(s.logID))),
                            ("log", .string(s.logName)),
                            ("operator", .string(s.operatorName)),
                            ("logState", .string(s.logState?.rawValue)),
                            ("timestamp", .string(s.timestamp?.rfc3339)),
                            ("verified", .bool(s.outcome.isVerified)),
                            ("counted", .bool(s.counted)),
                            ("outcome", .string(s.outcome.text)),
                        ])
                    })
            ),
        ])
    }
}
