import TrustSupport
import TrustX509

/// The matching rules of RFC 5280 4.2.1.10 for each name type.
package enum NameConstraintMatcher {
    /// Why `name` violates `nc`, or nil when it does not.
    package static func violation(_ name: GeneralName, _ nc: NameConstraints, webpki: Bool = false) -> String? {
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

    package static func sameKind(_ a: GeneralName, _ b: GeneralName) -> Bool {
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
    package static func matches(_ name: GeneralName, _ base: GeneralName) -> Bool? {
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

    package static func lower(_ s: String) -> String {
        String(decoding: s.utf8.map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
    }

    /// `dnsWithin` of the ASCII-lowercased strings, without building them: this runs for every
    /// (name, subtree) pair, up to the evaluation's budget, so it allocates nothing.
    package static func dnsWithinIgnoringCase(_ name: String, _ base: String) -> Bool {
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
    package static func dnsWithin(_ name: String, _ base: String) -> Bool {
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
    package static func isValidDNSName(_ name: String, wildcard: Bool) -> Bool {
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
    package static func isValidMailbox(_ name: String) -> Bool {
        let parts = name.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else { return false }
        return isValidDNSName(String(parts[1]), wildcard: false)
    }

    package static func hostWithin(_ host: String, _ base: String) -> Bool {
        if base.hasPrefix(".") { return host.hasSuffix(base) && host.count > base.count }
        return host == base
    }

    /// rfc822Name: a mailbox is exact; a host covers mailboxes on it; `.domain` covers hosts below.
    package static func emailWithin(_ name: String, _ base: String) -> Bool {
        if base.contains("@") { return name == base }
        guard let at = name.lastIndex(of: "@") else { return false }
        let host = String(name[name.index(after: at)...])
        return hostWithin(host, base)
    }

    package static func uriHost(_ uri: String) -> String? {
        guard let schemeEnd = uri.firstRange(of: "://") else { return nil }
        var rest = uri[schemeEnd.upperBound...]
        if let at = rest.firstIndex(of: "@") { rest = rest[rest.index(after: at)...] }
        let end = rest.firstIndex(where: { $0 == "/" || $0 == ":" || $0 == "?" || $0 == "#" }) ?? rest.endIndex
        let host = String(rest[..<end])
        return host.isEmpty ? nil : host
    }
}
