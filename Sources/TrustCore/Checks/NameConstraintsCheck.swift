/// `name-constraints`: every name below a constrained CA lies within its permitted subtrees and
/// outside its excluded ones (RFC 5280 4.2.1.10 and 6.1.3 (b)-(c)).
enum NameConstraintsCheck: PathCheck {
    static func run(_ c: CheckContext, into steps: inout [Step]) {
        let constrained = c.certificates.indices.filter { c.certificates[$0].nameConstraints != nil }
        guard !constrained.isEmpty else {
            steps.append(Step(.nameConstraints, nil, .notApplicable, .noNameConstraints))
            return
        }
        for i in 0..<c.count {
            let above = constrained.filter { $0 > i }
            if above.isEmpty { continue }
            let cert = c.certificates[i]
            // RFC 5280 6.1.3 (b): self-issued intermediates are exempt; the leaf never is.
            if i > 0 && cert.isSelfIssued { continue }
            var violation: (String, String)?
            outer: for k in above {
                let nc = c.certificates[k].nameConstraints!
                for name in names(of: cert) {
                    if let why = NameConstraintMatcher.violation(name, nc) {
                        violation = (name.valueText, why + " (constraint on \(c.certificates[k].displayName))")
                        break outer
                    }
                }
            }
            if let (name, why) = violation {
                steps.append(Step(.nameConstraints, i, .failed, .nameConstraintViolated(name: name, reason: why)))
            } else {
                steps.append(Step(.nameConstraints, i, .passed, .withinNameConstraints(count: above.count)))
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
    static func violation(_ name: GeneralName, _ nc: NameConstraints) -> String? {
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
            return dnsWithin(lower(n), lower(b))
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
                        normalizeForMatch(tag: p.valueTag, raw: p.rawValue) == normalizeForMatch(tag: q.valueTag, raw: q.rawValue)
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
