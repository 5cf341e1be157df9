import ATSModel
import TrustCore
import TrustSupport
import TrustX509

extension ATSLint {
    /// NSPinnedLeafIdentities and NSPinnedCAIdentities, from the key table.
    static let identityLists = ATSKey.all.filter { $0.places.contains(.pinnedDomain) && $0.type == .identities }
        .map(\.name)

    // MARK: - NSPinnedDomains

    static func checkPinnedDomains(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) {
        forEachDomain(value, path: path, exception: false, into: &out) { domain, entries, p, out in
            unknownKeys(entries, known: pinnedKeys, path: p, into: &out)
            checkBoolean(entries, "NSIncludesSubdomains", path: p, numbersCount: false, into: &out)
            var valid: [String] = []
            var categories: [String] = []
            for key in identityLists {
                guard let array = entries.first(where: { $0.key == key })?.value else { continue }
                categories.append(key)
                valid += identities(array, path: p + [key], into: &out)
            }
            if categories.isEmpty {
                out.append(
                    LintFinding(
                        rule: .pinnedDomainWithoutIdentities, severity: .error, path: p,
                        message: "\(domain) has neither NSPinnedLeafIdentities nor NSPinnedCAIdentities",
                        why: "The entry pins nothing, so it looks like protection that is not there.",
                        fix: "Add NSPinnedCAIdentities with at least two SPKI-SHA256-BASE64 pins, or remove the entry.")
                )
                return
            }
            var seen: Set<String> = []
            let distinct = valid.filter { seen.insert($0).inserted }
            if distinct.count < 2 {
                out.append(
                    LintFinding(
                        rule: .pinsFewerThanTwo, severity: .error, path: p,
                        message: "\(domain) has \(distinct.count) usable pin\(distinct.count == 1 ? "" : "s")",
                        why:
                            "When the pinned key changes (renewal, compromise, a new CA) every connection fails until users install an update.",
                        fix:
                            "Add a backup pin: the key of a second CA, or of a spare key pair kept offline for the next certificate."
                    ))
            }
            if categories == ["NSPinnedLeafIdentities"] {
                out.append(
                    LintFinding(
                        rule: .leafPinsOnly, severity: .warning, path: p + ["NSPinnedLeafIdentities"],
                        message: "\(domain) pins leaf keys only",
                        why:
                            "Leaf certificates are renewed every few months, and a renewal with a new key breaks the pin.",
                        fix: "Pin the issuing CA's key in NSPinnedCAIdentities, or renew with the same key pair."))
            }
        }
    }

    /// The valid pins of one identities array, reporting the invalid ones.
    static func identities(_ value: PropertyListValue, path: [String], into out: inout [LintFinding]) -> [String] {
        guard case .array(let items) = value else {
            out.append(wrongType(path, expected: "an array of dictionaries", found: value))
            return []
        }
        if items.isEmpty {
            out.append(
                LintFinding(
                    rule: .pinsEmptyArray, severity: .error, path: path, message: "the array is empty",
                    why: "An empty identities array matches no certificate, so every connection to the domain fails.",
                    fix: "List at least two SPKI-SHA256-BASE64 pins, or remove the key."))
        }
        var valid: [String] = []
        var seen: Set<String> = []
        for (i, item) in items.enumerated() {
            let p = path + ["[\(i)]"]
            guard case .dictionary(let entries) = item else {
                out.append(wrongType(p, expected: "a dictionary with SPKI-SHA256-BASE64", found: item))
                continue
            }
            duplicates(entries, path: p, into: &out)
            unknownKeys(entries, known: [identityKey], path: p, into: &out)
            guard let pin = entries.first(where: { $0.key == identityKey })?.value else {
                out.append(
                    LintFinding(
                        rule: .pinMissing, severity: .error, path: p, message: "no SPKI-SHA256-BASE64 key",
                        why: "An identity without a pin never matches, and counts for nothing.",
                        fix: "Add SPKI-SHA256-BASE64 with the base64 SHA-256 of the certificate's SubjectPublicKeyInfo."
                    ))
                continue
            }
            guard case .string(let text) = pin else {
                out.append(wrongType(p + [identityKey], expected: "a string", found: pin))
                continue
            }
            guard Base64.decode(text)?.count == 32 else {
                let prefixed = text.hasPrefix("sha256//") && Base64.decode(String(text.dropFirst(8)))?.count == 32
                out.append(
                    LintFinding(
                        rule: .pinNotSHA256, severity: .error, path: p + [identityKey],
                        message: "'\(text)' is not the base64 of 32 bytes",
                        why:
                            "ATS compares this with SHA-256 digests; a value that is not one never matches, and if no pin of the category is valid every connection fails.",
                        fix: prefixed
                            ? "Drop the sha256// prefix: ATS wants the bare base64."
                            : "Write the base64 SHA-256 of the SubjectPublicKeyInfo (trustx pin FILE prints it)."))
                continue
            }
            if !seen.insert(text).inserted {
                out.append(
                    LintFinding(
                        rule: .duplicatePin, severity: .warning, path: p + [identityKey],
                        message: "the same pin is listed twice", why: "A repeated pin is no backup.",
                        fix: "Replace it with the key of another CA or a spare key pair."))
            }
            valid.append(text)
        }
        return valid
    }
}
