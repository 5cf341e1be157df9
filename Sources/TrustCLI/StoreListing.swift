import PathRules
import TrustReport
import TrustSupport
import TrustX509

/// `trustx store list` and `show`: Apple's roots as a table, in detail, or as JSON.
enum StoreListing {
    /// The roots whose SHA-256 starts with `query` (4 hex digits at least), else whose name or
    /// subject contains it, ignoring case.
    static func find(_ query: String, in entries: [StoreCommand.Entry]) -> [StoreCommand.Entry] {
        let q = String(query.lowercased().filter { $0 != ":" })
        if q.count >= 4, q.allSatisfy(\.isHexDigit) {
            let hits = entries.filter { $0.sha256.lowercased().hasPrefix(q) }
            if !hits.isEmpty { return hits }
        }
        return entries.filter {
            $0.certificate.displayName.lowercased().contains(q)
                || $0.certificate.subject.description.lowercased().contains(q)
        }
    }

    /// `system: 4 Apple policies` per anchor type constraints.json lists the root under.
    static func constraintsSummary(_ e: StoreCommand.Entry) -> String {
        let c = AppleRootStore.shared.constraints(ofSHA256: e.certificate.sha256)
        return c.map { "\($0.type): \($0.policies.count) Apple polic\($0.policies.count == 1 ? "y" : "ies")" }
            .joined(separator: ", ")
    }

    /// The date constraint trustd's Valid database holds for the root, as compiled in.
    static func dateConstraint(_ e: StoreCommand.Entry) -> DateConstraint? {
        DateConstraint.apple(sha256: e.sha256)
    }

    /// `issued after 2024-11-15: not trusted`, marked when the entry is inferred.
    static func dateConstraintSummary(_ c: DateConstraint) -> String {
        c.rule + (c.confirmed ? "" : " (unconfirmed)")
    }

    static func table(_ entries: [StoreCommand.Entry], machine: SystemTrustStore) -> String {
        let store = AppleRootStore.shared
        var out = "Apple's root store, \(store.tag): \(entries.count) roots"
        out += " (here = also in this machine's store, \(TerminalSanitizer.sanitize(machine.location)))\n\n"
        for e in entries {
            let ev = store.evPolicies(ofSHA256: e.certificate.sha256).isEmpty ? "  " : "EV"
            let here = e.onMachine ? "here" : "    "
            let valid = "\(e.certificate.notBefore.rfc3339.prefix(10))..\(e.certificate.notAfter.rfc3339.prefix(10))"
            var line = "\(e.sha256.prefix(16).lowercased())  \(here)  \(ev)  \(valid)  "
            line += TerminalSanitizer.sanitize(e.certificate.displayName)
            line += "  [\(ReportFormatting.keyDescription(e.certificate.publicKey))]"
            let constraints = constraintsSummary(e)
            if !constraints.isEmpty { line += "  constraints: \(constraints)" }
            if let date = dateConstraint(e) { line += "  \(dateConstraintSummary(date))" }
            out += line + "\n"
        }
        return out
    }

    static func detail(_ e: StoreCommand.Entry) -> String {
        let store = AppleRootStore.shared
        let c = e.certificate
        var lines = [
            TerminalSanitizer.sanitize(c.displayName),
            "  subject      \(TerminalSanitizer.sanitize(c.subject.description))",
            "  sha256       \(e.sha256.lowercased())",
            "  spki-sha256  \(c.spkiPin)",
            "  key          \(ReportFormatting.keyDescription(c.publicKey))",
            "  valid        \(c.notBefore.rfc3339) to \(c.notAfter.rfc3339)",
            "  for safari   \(safariLine(c))",
            "  file         certificates/roots/\(TerminalSanitizer.sanitize(AppleRootStore.shared.fileName(at: e.index)))",
            "  this machine \(e.onMachine ? "has it" : "does not have it")",
        ]
        let ev = store.evPolicies(ofSHA256: c.sha256)
        lines.append("  EV policies  \(ev.isEmpty ? "none" : ev.joined(separator: ", "))")
        let constraints = store.constraints(ofSHA256: c.sha256)
        if constraints.isEmpty {
            lines.append("  constraints  none (trusted for every policy)")
        } else {
            for (type, policies) in constraints {
                lines.append("  constraints  \(type): \(policies.joined(separator: ", "))")
            }
            lines.append(
                "               (trustd applies them only in its constrained anchor source; see docs/steps.md)")
        }
        if let date = dateConstraint(e) {
            lines.append("  issuance     \(dateConstraintSummary(date))")
            lines.append("               \(TerminalSanitizer.sanitize(date.provenance))")
            lines.append("               (trustd's Valid database; see docs/apple-trust-data.md)")
        } else {
            lines.append("  issuance     no date constraint announced")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// When the root expires for Safari and Apple's other programs (`--client safari`).
    static func safariLine(_ c: Certificate) -> String {
        if AnchorExpiryRules.neverExpiring[hexString(c.sha256)] != nil {
            return "never checked for expiry (trustd exempts this anchor, whoever asks)"
        }
        guard let early = AnchorExpiryRules.earlyExpiry(of: c) else {
            return "expires at its notAfter (valid for 120 days or less)"
        }
        return "expires \(early.rfc3339), 60 days before its notAfter (--client safari; "
            + "on Apple-internal builds only in Security-61901, docs/steps.md#validity)"
    }

    static func root(_ e: StoreCommand.Entry) -> JSONValue {
        let store = AppleRootStore.shared
        let c = e.certificate
        return .object([
            ("name", .string(c.displayName)),
            ("subject", .string(c.subject.description)),
            ("sha256", .string(e.sha256.lowercased())),
            ("spkiSHA256", .string(c.spkiPin)),
            ("key", .string(ReportFormatting.keyDescription(c.publicKey))),
            ("notBefore", .string(c.notBefore.rfc3339)),
            ("notAfter", .string(c.notAfter.rfc3339)),
            ("safariNotAfter", AnchorExpiryRules.earlyExpiry(of: c).map { .string($0.rfc3339) } ?? .null),
            ("file", .string(AppleRootStore.shared.fileName(at: e.index))),
            (
                "constraints",
                .array(
                    store.constraints(ofSHA256: c.sha256).map {
                        .object([("type", .string($0.type)), ("policies", .array($0.policies.map { .string($0) }))])
                    })
            ),
            ("evPolicies", .array(store.evPolicies(ofSHA256: c.sha256).map { .string($0) })),
            ("dateConstraint", dateConstraint(e).map(dateConstraintJSON) ?? .null),
            ("onMachine", .bool(e.onMachine)),
        ])
    }

    static func dateConstraintJSON(_ c: DateConstraint) -> JSONValue {
        .object([
            ("rule", .string(c.rule)),
            ("cutoffDate", .string(c.cutoffDate)),
            ("notBefore", c.notBefore.map { .string($0.rfc3339) } ?? .null),
            ("notAfter", c.notAfter.map { .string($0.rfc3339) } ?? .null),
            ("overridable", c.overridable.map { .bool($0) } ?? .null),
            ("source", .string(c.source)),
            ("confirmed", .bool(c.confirmed)),
        ])
    }

    static func json(_ entries: [StoreCommand.Entry], machine: SystemTrustStore) -> String {
        JSONWriter.serialize(
            .object([
                ("store", .string("apple")),
                ("version", .string(AppleRootStore.shared.tag)),
                ("machineStore", .string(machine.location)),
                ("count", .int(entries.count)),
                ("roots", .array(entries.map(root))),
            ])) + "\n"
    }
}
