import CTModel
/// What the `certificate-transparency` step found (CertificateTransparencyCheck). Each case
/// carries the path's CT assessment: every SCT and what became of it.
enum CertificateTransparencyFinding: RuleFinding {
    /// trustd does not enforce CT here (the policy, the anchor or the leaf's dates); the path's CT
    /// result is still computed.
    case ctNotRequired(reason: String, CTAssessment)
    /// Enforced, and the path is CT-qualified.
    case ctSatisfied(CTAssessment)
    /// Enforced, and the path is not CT-qualified.
    case ctMissing(CTAssessment)

    var storage: Finding.Storage { .certificateTransparency(self) }

    var assessment: CTAssessment {
        switch self {
        case .ctNotRequired(_, let a), .ctSatisfied(let a), .ctMissing(let a): a
        }
    }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .ctMissing: AppleFailure("SystemTrustedCTRequired", .compliance, -67825)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .ctNotRequired(_, let a):
            "Certificate Transparency not required (\(a.qualified ? "the path is CT-qualified" : "the path is not CT-qualified"))"
        case .ctSatisfied(let a): "CT-qualified: \(Self.counts(a))"
        case .ctMissing(let a): "Not CT-qualified: \(Self.counts(a))"
        }
    }

    /// The verified SCTs against what the policy asks, in a few words.
    static func counts(_ a: CTAssessment) -> String {
        if a.qualifiedBy == .tlsExtension {
            return "SCTs from \(a.currentLogs) logs, delivered with the certificate (2 required)"
        }
        let logs = a.qualifiedEmbeddedLogs
        return "embedded SCTs from \(logs) log\(logs == 1 ? "" : "s") (\(a.requiredEmbedded) required)"
    }

    var specifics: String? {
        let a = assessment
        return "\(a.scts.count) SCT\(a.scts.count == 1 ? "" : "s"); \(Self.counts(a))"
    }

    /// The rule in plain words, citing its source, then every SCT.
    var detail: String {
        let a = assessment
        var lines: [String] = []
        if case .ctNotRequired(let reason, _) = self { lines.append(reason) }
        lines.append(
            "Apple's CT policy (trustd, CertificateTransparency.m): a path is CT-qualified with SCTs from 2 currently trusted logs of which at least one was delivered with the certificate (TLS extension or stapled OCSP response), or with embedded SCTs from enough logs, at least one currently trusted; embedded SCTs from a retired log count when dated, and the certificate issued, before its retirement. Embedded SCTs needed by lifetime: for leaves issued before 2021-04-21, under 15 months 2, to 27 months 3, to 39 months 4, else 5; from 2021-04-21, up to 180 days 2, up to 825 days 3, else 4. trustd counts logs, not operators. Where enforced (SSL policy, system root other than Apple's, leaf issued from 2018-10-16 and valid), a path that is not CT-qualified fails with SystemTrustedCTRequired, errSecVerifyActionFailed (SecPolicyServer.c)."
        )
        let era = a.era == .beforeApril2021 ? "issued before 2021-04-21" : "issued from 2021-04-21"
        lines.append(
            "This leaf (\(era)) needs \(a.requiredEmbedded) embedded; logs checked against: \(a.logListSource). Operators counted: \(a.operators.isEmpty ? "none" : a.operators.joined(separator: ", "))."
        )
        // One paragraph: reports sanitise control characters, newlines included.
        if a.scts.isEmpty {
            lines.append("No SCTs: none embedded, none delivered.")
        } else {
            lines.append(
                "SCTs: " + a.scts.enumerated().map { "\($0.offset + 1)) \($0.element.summary)" }.joined(separator: "; ")
                    + ".")
        }
        return lines.joined(separator: " ")
    }
}

extension Finding {
    /// The path's Certificate Transparency assessment, when this is the CT step's finding.
    public var certificateTransparency: CTAssessment? {
        if case .certificateTransparency(let f) = storage { return f.assessment }
        return nil
    }
}
