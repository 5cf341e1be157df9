import TrustSupport
import TrustX509

extension NameConstraintMatcher {
    /// Why each subtree base of `nc` is not a well-formed name of its form (RFC 5280 4.2.1.10),
    /// one line per malformed base. A malformed constraint cannot be applied as its issuer meant:
    /// an excluded one would exclude nothing, a permitted one would permit nothing or, as a
    /// leading period does for dNSName in some libraries, something else than it says.
    package static func malformedBases(_ nc: NameConstraints) -> [String] {
        var out: [String] = []
        for subtree in (nc.permitted ?? []) + (nc.excluded ?? []) {
            if let why = malformedBase(subtree.base) { out.append(why) }
        }
        return out
    }

    /// Why `base` is malformed as a constraint, or nil when it is well formed or of a form whose
    /// syntax this does not judge.
    package static func malformedBase(_ base: GeneralName) -> String? {
        switch base {
        case .dnsName(let name):
            // "DNS name restrictions are expressed as host.example.com. Any DNS name that can be
            // constructed by simply adding zero or more labels to the left-hand side of the name
            // satisfies the name constraint." A leading period belongs to the URI and rfc822Name
            // forms only; the empty name (every DNS name) is allowed.
            guard !name.isEmpty, !isValidDNSName(name, wildcard: false) else { return nil }
            return "nameConstraints dNSName \(InputExcerpt.quote(name)) is not a DNS host name (RFC 5280 4.2.1.10)"
        case .rfc822Name(let name):
            // "a particular mailbox, all addresses at a particular host, or all mailboxes in a
            // domain" (the domain with a leading period).
            if name.contains("@") {
                return isValidMailbox(name)
                    ? nil
                    : "nameConstraints rfc822Name \(InputExcerpt.quote(name)) is not a mailbox, host or domain (RFC 5280 4.2.1.10)"
            }
            let host = name.hasPrefix(".") ? String(name.dropFirst()) : name
            guard !name.isEmpty, !isValidDNSName(host, wildcard: false) else { return nil }
            return
                "nameConstraints rfc822Name \(InputExcerpt.quote(name)) is not a mailbox, host or domain (RFC 5280 4.2.1.10)"
        case .ipAddress(let bytes):
            // "the iPAddress field ... MUST contain eight (8) octets [IPv4] ... thirty-two (32)
            // octets [IPv6], encoded in the style of RFC 4632 (CIDR)": an address and a mask whose
            // one bits are contiguous from the left.
            guard bytes.count == 8 || bytes.count == 32 else {
                return
                    "nameConstraints iPAddress has \(bytes.count) octets, not an address and mask of 8 (IPv4) or 32 (IPv6) (RFC 5280 4.2.1.10)"
            }
            let mask = bytes[(bytes.count / 2)...]
            var seenZero = false
            for byte in mask {
                for bit in (0..<8).reversed() {
                    let one = byte & (1 << bit) != 0
                    if one && seenZero {
                        return "nameConstraints iPAddress mask is not a CIDR prefix (RFC 5280 4.2.1.10)"
                    }
                    if !one { seenZero = true }
                }
            }
            return nil
        default:
            return nil
        }
    }

    /// A subjectAltName dNSName in RFC 5280 4.2.1.6's "preferred name syntax": RFC 1034 3.5 as
    /// RFC 1123 2.1 modifies it (a label may start with a digit), a leftmost `*` label allowed.
    /// Unlike `isValidDNSName`, an underscore is refused (RFC 1034 3.5 has letters, digits and
    /// hyphens only), and so is a name whose last label is all digits: RFC 1123 2.1 notes that "a
    /// valid host name can never have the dotted-decimal form #.#.#.#, since at least the
    /// highest-level component label will be alphabetic".
    package static func isPreferredNameSyntax(_ name: String) -> Bool {
        guard isValidDNSName(name, wildcard: true), !name.utf8.contains(0x5F) else { return false }
        let last = name.utf8.split(separator: 0x2E, omittingEmptySubsequences: false).last ?? []
        return !last.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
