import TrustX509

/// `name-constraints`: every name below a constrained CA lies within its permitted subtrees and
/// outside its excluded ones (RFC 5280 4.2.1.10 and 6.1.3 (b)-(c)).
struct NameConstraintsCheck: PathCheck {
    /// Apple: a CA's critical constraint on a name form trustd does not process fails the path.
    let rejectsFormsAppleCannotProcess: Bool
    /// RFC 5280's own rules: nameConstraints only in a CA certificate, and names matched as RFC
    /// 5280 4.2.1.10 reads them (webpki).
    let rfc5280Rules: Bool
    /// RFC 5280 4.2.1.10: "Conforming CAs MUST mark this extension as critical" (the Baseline
    /// Requirements let a CA leave it non-critical, BR 7.1.2.10.8).
    let mustBeCritical: Bool

    var enforcedExtensions: Set<OID> { [.nameConstraints] }

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        let constrained = c.certificates.indices.filter { c.certificates[$0].nameConstraints != nil }
        guard !constrained.isEmpty else {
            steps.append(Step(.nameConstraints, nil, .notApplicable, NameConstraintsFinding.noNameConstraints))
            return
        }
        appleUnsupportedForms(c, constrained, into: &steps)
        // The work this path needs, counted before doing any of it: every name below a constrained
        // CA against each of its subtrees.
        var comparisons = 0
        for i in 0..<c.count where !(i > 0 && c.certificates[i].isSelfIssued) {
            let count = Self.names(of: c.certificates[i]).count
            for k in constrained where k > i {
                let nc = c.certificates[k].nameConstraints!
                comparisons += count * ((nc.permitted?.count ?? 0) + (nc.excluded?.count ?? 0))
            }
        }
        if rfc5280Rules {
            for k in constrained {
                let cert = c.certificates[k]
                // RFC 5280 4.2.1.10: "The name constraints extension, which MUST be used only in a
                // CA certificate, ..."
                if cert.basicConstraints?.isCA != true {
                    steps.append(
                        Step(
                            .nameConstraints, k, .failed,
                            NameConstraintsFinding.nameConstraintViolated(
                                name: cert.displayName,
                                reason:
                                    "nameConstraints appears in a certificate that is not a CA (RFC 5280 4.2.1.10: \"MUST be used only in a CA certificate\")"
                            )))
                }
                if mustBeCritical, cert.extension(.nameConstraints)?.critical == false {
                    steps.append(
                        Step(
                            .nameConstraints, k, .failed,
                            NameConstraintsFinding.nameConstraintViolated(
                                name: cert.displayName,
                                reason:
                                    "nameConstraints is not marked critical (RFC 5280 4.2.1.10: \"Conforming CAs MUST mark this extension as critical\")"
                            )))
                }
            }
        }
        // The one bound on this work (as Go's maxConstraintComparisons and rustls-webpki's budget):
        // the evaluation's budget sums it over every path under every policy; a path that would
        // overrun it is not compared at all, and the evaluation ends with the `budget` step.
        guard budget.chargeNameConstraintComparisons(comparisons) else {
            let kind = budget.exhausted ?? .nameConstraintComparisons
            steps.append(
                Step(
                    .nameConstraints, nil, .skipped("the evaluation's budget ran out before these names were compared"),
                    BudgetFinding.budgetExhausted(budget: kind, limit: budget.limit(of: kind))))
            return
        }
        for i in 0..<c.count {
            // The deadline still applies to comparisons within budget; the budget step follows.
            guard budget.withinTime() else { return }
            let above = constrained.filter { $0 > i }
            if above.isEmpty { continue }
            let cert = c.certificates[i]
            // RFC 5280 6.1.3 (b): self-issued intermediates are exempt; the leaf never is.
            if i > 0 && cert.isSelfIssued { continue }
            var violation: (String, String)?
            outer: for k in above {
                let nc = c.certificates[k].nameConstraints!
                for name in Self.names(of: cert) {
                    if let why = NameConstraintMatcher.violation(name, nc, webpki: rfc5280Rules) {
                        violation = (name.valueText, why + " (constraint on \(c.certificates[k].displayName))")
                        break outer
                    }
                }
            }
            if let (name, why) = violation {
                steps.append(
                    Step(
                        .nameConstraints, i, .failed,
                        NameConstraintsFinding.nameConstraintViolated(name: name, reason: why)))
            } else {
                steps.append(
                    Step(.nameConstraints, i, .passed, NameConstraintsFinding.withinNameConstraints(count: above.count))
                )
            }
        }
    }

    /// The names a constraint applies to: the subject (as directoryName), subject email
    /// addresses (as rfc822Name when there is no SAN), and every SAN entry.
    static func names(of cert: Certificate) -> [GeneralName] {
        var out: [GeneralName] = []
        if !cert.subject.isEmpty { out.append(.directoryName(cert.subject)) }
        if let san = cert.subjectAltNames {
            out += san
        } else {
            for email in cert.subject.values(of: .emailAddress) { out.append(.rfc822Name(email)) }
        }
        return out
    }
}

/// The matching rules of RFC 5280 4.2.1.10 for each name type.
enum NameConstraintMatcher {
    /// Why `name` violates `nc`, or nil when it does not.
    static func violation(_ name: GeneralName, _ nc: NameConstraints, webpki: Bool = false) -> String? {
        if webpki {
            let all = (nc.permitted ?? []) + (nc.excluded ?? [])
            // RFC 5280 4.2.1.10: "any name ... MUST be located within the permitted namespace": a
            // malformed name cannot be shown to be, so it fails a constraint of its type.
            // RFC 5280 4.2.1.6: "the name MUST be in the 'preferred name syntax', as specified by
            // Section 3.5 of [RFC1034]"; an rfc822Name is "a Mailbox as defined in Section 4.1.2 of
            // [RFC2821]" (one local part, one "@", one domain).
            if all.contains(where: { sameKind($0.base, name) }) {
                switch name {
                case .dnsName(let n) where !isValidDNSName(n, wildcard: true):
                    return
                        "dNSName \(n) is not a valid DNS name, so it cannot be shown to lie within the name constraints"
                case .rfc822Name(let n) where !isValidMailbox(n):
                    return
                        "rfc822Name \(n) is not a valid mailbox, so it cannot be shown to lie within the name constraints"
                default: break
                }
            }
            // CVE-2025-61727 (x509-limbo cve::cve-2025-61727): RFC 5280 4.2.1.10 says "Any name
            // matching a restriction in the excludedSubtrees field is invalid regardless of
            // information appearing in the permittedSubtrees"; a wildcard dNSName that would match
            // (RFC 9525 6.3) a host inside an excluded subtree is treated as inside it.
            if case .dnsName(let n) = name, n.hasPrefix("*."), let excluded = nc.excluded {
                let suffix = lower(String(n.dropFirst(2)))
                for subtree in excluded {
                    guard case .dnsName(let b) = subtree.base, !b.hasPrefix(".") else { continue }
                    let base = lower(b)
                    if base.hasSuffix("." + suffix), !base.dropLast(suffix.count + 1).contains(".") {
                        return "dNSName \(n) would match \(b), inside the excluded subtree \(b)"
                    }
                }
            }
        }
        if let excluded = nc.excluded {
            for subtree in excluded where matches(name, subtree.base) == true {
                return "\(name.typeName) \(name.valueText) is inside the excluded subtree \(subtree.base.valueText)"
            }
        }
        if let permitted = nc.permitted {
            let sameType = permitted.filter { sameKind($0.base, name) }
            if !sameType.isEmpty && !sameType.contains(where: { matches(name, $0.base) == true }) {
                return "\(name.typeName) \(name.valueText) is outside every permitted \(name.typeName) subtree"
            }
        }
        return nil
    }

    static func sameKind(_ a: GeneralName, _ b: GeneralName) -> Bool {
        switch (a, b) {
        case (.dnsName, .dnsName), (.rfc822Name, .rfc822Name), (.uri, .uri), (.ipAddress, .ipAddress),
            (.directoryName, .directoryName), (.x400Address, .x400Address), (.ediPartyName, .ediPartyName),
            (.registeredID, .registeredID):
            return true
        case (.otherName(let t1, _), .otherName(let t2, _)):
            return t1 == t2
        default:
            return false
        }
    }

    /// Whether `name` lies within `base`; nil when the types differ.
    static func matches(_ name: GeneralName, _ base: GeneralName) -> Bool? {
        switch (name, base) {
        case (.dnsName(let n), .dnsName(let b)):
            return dnsWithinIgnoringCase(n, b)
        case (.rfc822Name(let n), .rfc822Name(let b)):
            return emailWithin(lower(n), lower(b))
        case (.uri(let n), .uri(let b)):
            guard let host = uriHost(n) else { return true }  // no host: cannot be shown to be outside
            return hostWithin(lower(host), lower(b))
        case (.ipAddress(let n), .ipAddress(let b)):
            guard b.count == n.count * 2 else { return false }
            for i in 0..<n.count where n[i] & b[n.count + i] != b[i] & b[n.count + i] { return false }
            return true
        case (.directoryName(let n), .directoryName(let b)):
            // RFC 5280 4.2.1.10: the constraint's RDNs are a prefix of the name's.
            guard b.rdns.count <= n.rdns.count else { return false }
            for (x, y) in zip(n.rdns, b.rdns) {
                guard x.count == y.count else { return false }
                for (p, q) in zip(x, y) {
                    guard p.type == q.type,
                        normalizeForMatch(tag: p.valueTag, raw: p.rawValue)
                            == normalizeForMatch(tag: q.valueTag, raw: q.rawValue)
                    else { return false }
                }
            }
            return true
        case (.otherName(let t1, let v1), .otherName(let t2, let v2)):
            return t1 == t2 && v1 == v2
        case (.registeredID(let a), .registeredID(let b)):
            return a == b
        default:
            return sameKind(name, base) ? false : nil
        }
    }

    static func lower(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// `dnsWithin` of the ASCII-lowercased strings, without building them: this runs for every
    /// (name, subtree) pair, up to the evaluation's budget, so it allocates nothing.
    static func dnsWithinIgnoringCase(_ name: String, _ base: String) -> Bool {
        var name = name
        var base = base
        return name.withUTF8 { n in
            base.withUTF8 { b in
                if b.isEmpty { return true }
                var n = n[...]
                if n.last == 0x2E { n = n.dropLast() }
                func fold(_ c: UInt8) -> UInt8 { c >= 0x41 && c <= 0x5A ? c + 0x20 : c }
                /// Whether `n` ends with `b`.
                func endsWith(_ b: UnsafeBufferPointer<UInt8>) -> Bool {
                    guard n.count >= b.count else { return false }
                    var i = n.endIndex
                    var j = b.endIndex
                    while j > b.startIndex {
                        i -= 1
                        j -= 1
                        if fold(n[i]) != fold(b[j]) { return false }
                    }
                    return true
                }
                if b[0] == 0x2E { return n.count > b.count && endsWith(b) }
                guard endsWith(b) else { return false }
                // Equal, or the byte before the suffix is the label separator.
                return n.count == b.count || n[n.endIndex - b.count - 1] == 0x2E
            }
        }
    }

    /// dNSName: `example.com` covers itself and every name below it; a leading dot means
    /// below only; an empty constraint covers everything.
    static func dnsWithin(_ name: String, _ base: String) -> Bool {
        if base.isEmpty { return true }
        var n = name
        if n.hasSuffix(".") { n.removeLast() }
        if base.hasPrefix(".") { return n.hasSuffix(base) && n.count > base.count }
        if n == base { return true }
        return n.hasSuffix("." + base)
    }

    /// RFC 1034 3.5 preferred name syntax (letters, digits, hyphens; underscores tolerated as
    /// they are in practice), labels of 1 to 63 octets, at most 253 octets, no trailing dot;
    /// with `wildcard`, a leftmost label of exactly `*` is allowed.
    static func isValidDNSName(_ name: String, wildcard: Bool) -> Bool {
        let bytes = Array(name.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        let labels = bytes.split(separator: 0x2E, omittingEmptySubsequences: false)
        for (index, label) in labels.enumerated() {
            guard !label.isEmpty, label.count <= 63 else { return false }
            if wildcard && index == 0 && labels.count > 1 && label.count == 1 && label.first == 0x2A { continue }
            guard label.first != 0x2D, label.last != 0x2D else { return false }
            for b in label {
                let l = b | 0x20
                guard (l >= 0x61 && l <= 0x7A) || (b >= 0x30 && b <= 0x39) || b == 0x2D || b == 0x5F else {
                    return false
                }
            }
        }
        return true
    }

    /// A mailbox: a non-empty local part without `@`, one `@`, and a valid DNS domain.
    static func isValidMailbox(_ name: String) -> Bool {
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        return isValidDNSName(String(parts[1]), wildcard: false)
    }

    static func hostWithin(_ host: String, _ base: String) -> Bool {
        if base.hasPrefix(".") { return host.hasSuffix(base) && host.count > base.count }
        return host == base
    }

    /// rfc822Name: a mailbox is exact; a host covers mailboxes on it; `.domain` covers hosts below.
    static func emailWithin(_ name: String, _ base: String) -> Bool {
        if base.contains("@") { return name == base }
        guard let at = name.lastIndex(of: "@") else { return false }
        let host = String(name[name.index(after: at)...])
        return hostWithin(host, base)
    }

    static func uriHost(_ uri: String) -> String? {
        guard let schemeEnd = uri.firstRange(of: "://") else { return nil }
        var rest = uri[schemeEnd.upperBound...]
        if let at = rest.firstIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        let end = rest.firstIndex(where: { $0 == "/" || $0 == ":" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let host = String(rest[..<end])
        return host.isEmpty ? nil : host
    }
}
