import TrustSupport
import TrustX509

/// Why a host name did not match, in words: built only after a match failed, off the hot path.
extension HostnameMatcher {
    // MARK: - Failure explanations (off the hot path)

    package static func ipFailure(
        host: String, address: [UInt8], dnsNames: [String], ipAddresses: [[UInt8]], commonNames: [String],
        cite: String
    ) -> HostnameMatch {
        let formatted = formatIPAddress(address)
        let explanation: String
        if let name = dnsNames.first(where: { ipAddress($0) == address }) {
            explanation =
                "\(quote(host)) is an IP address, which only SAN iPAddress entries can match; "
                + "the certificate lists it as the dNSName \(quote(name)), which is never compared with IP addresses"
        } else if let cn = commonNames.first(where: { ipAddress($0) == address }) {
            explanation =
                "\(quote(host)) is an IP address, which only SAN iPAddress entries can match; "
                + "the Common Name \(quote(cn)) holds it but is never used (\(cite))"
        } else if ipAddresses.isEmpty {
            explanation = "\(quote(host)) is an IP address and the certificate has no SAN iPAddress entries"
        } else {
            explanation =
                "no SAN iPAddress entry equals \(formatted) (the certificate has "
                + listed(ipAddresses.map(formatIPAddress), quoted: false) + ")"
        }
        return HostnameMatch(matched: false, matchedName: nil, explanation: explanation)
    }

    package static func dnsFailure(
        host: String, nearMiss: Verdict, nearMissName: String?, dnsNames: [String], commonNames: [String],
        publicSuffixes: PublicSuffixList?, cite: String
    ) -> HostnameMatch {
        var reference = Substring(host)
        if reference.hasSuffix(".") { reference = reference.dropLast() }
        var text: String
        if let name = nearMissName, nearMiss != .mismatch {
            let suffix = name.count > 2 ? String(name.dropFirst(2)) : ""
            switch nearMiss {
            case .invalidName:
                text =
                    "SAN dNSName \(quote(name)) is not a valid DNS name, so it was skipped, and no other SAN dNSName matches \(quote(host))"
            case .partialWildcard:
                text =
                    "\(quote(name)) is a partial-label wildcard, which never matches: only a whole leftmost “*” label does"
            case .misplacedWildcard:
                text = "\(quote(name)) has a wildcard outside the leftmost label or more than one, which never matches"
            case .wildcardTooDeep:
                text = "\(quote(name)) covers exactly one label, so it does not match \(quote(host))"
            case .wildcardApex:
                text = "\(quote(name)) covers exactly one label and never the bare domain \(quote(String(reference)))"
            case .wildcardEmptyLabel:
                text =
                    "\(quote(name)) needs one non-empty label before \(quote(suffix)), and \(quote(host)) has an empty one"
            case .wildcardSingleLabel:
                text = "\(quote(name)) puts a wildcard directly on a single label, which never matches"
            case .wildcardPublicSuffix:
                text =
                    "\(quote(name)) puts a wildcard directly on the public suffix \(quote(suffix.lowercased())), which never matches"
            case .mismatch, .exact, .wildcard:
                text = "no SAN dNSName matches \(quote(host))"
            }
        } else if dnsNames.isEmpty {
            text = "the certificate has no SAN dNSName entries"
        } else {
            text = "no SAN dNSName matches \(quote(host)) (the certificate names \(listed(dnsNames, quoted: true)))"
        }

        // Would a Common Name have matched under the same rules? Then say it was ignored.
        let ignoredCN = commonNames.first { cn in
            withBytes(host) { raw in
                var r = raw
                if let last = r.last, last == dot { r = UnsafeBufferPointer(rebasing: r.dropLast()) }
                let verdict = withBytes(cn) { evaluate(presented: $0, reference: r, psl: publicSuffixes) }
                return verdict == .exact || verdict == .wildcard
            }
        }
        if let cn = ignoredCN {
            text += "; the Common Name \(quote(cn)) would match but is never used (\(cite))"
        } else if dnsNames.isEmpty {
            text += ", and the Common Name is never used (\(cite))"
        }
        return HostnameMatch(matched: false, matchedName: nil, explanation: text)
    }

    /// Up to three names, then a count.
    private static func listed(_ items: [String], quoted: Bool) -> String {
        let shown = items.prefix(3).map { quoted ? quote($0) : $0 }.joined(separator: ", ")
        return items.count > 3 ? shown + " and \(items.count - 3) more" : shown
    }

    /// Quotes attacker-controlled text for display: control, format and bidi characters become
    /// `\u{…}` escapes and long values are cut at 100 characters.
    package static func quote(_ text: String) -> String {
        var out = ""
        appendQuoted(text, to: &out)
        return out
    }

    /// `prefix` + `first` + `middle` + quoted `last`; `first` is quoted too when `quoteFirst`.
    /// Success explanations are built on every matching evaluation, so the usual case (plain
    /// ASCII names) is copied into one exactly-sized allocation.
    package static func sentence(
        _ prefix: String, _ first: String, _ middle: String, _ last: String, quoteFirst: Bool = false
    ) -> String {
        guard isPlain(last) && (!quoteFirst || isPlain(first)) else {
            var out = prefix
            if quoteFirst { appendQuoted(first, to: &out) } else { out += first }
            out += middle
            appendQuoted(last, to: &out)
            return out
        }
        let quotes = quoteFirst ? 2 : 1
        let total = prefix.utf8.count + first.utf8.count + middle.utf8.count + last.utf8.count + quotes * 6
        return String(unsafeUninitializedCapacity: total) { (buffer: UnsafeMutableBufferPointer<UInt8>) -> Int in
            guard let base = buffer.baseAddress else { return 0 }
            var at = copy(prefix, to: base, at: 0)
            if quoteFirst { at = copy("“", to: base, at: at) }
            at = copy(first, to: base, at: at)
            if quoteFirst { at = copy("”", to: base, at: at) }
            at = copy(middle, to: base, at: at)
            at = copy("“", to: base, at: at)
            at = copy(last, to: base, at: at)
            return copy("”", to: base, at: at)
        }
    }

    /// Copies `s`'s UTF-8 to `base + at`; returns the offset after it.
    @inline(__always)
    private static func copy(_ s: String, to base: UnsafeMutablePointer<UInt8>, at: Int) -> Int {
        withBytes(s) { bytes in
            if let source = bytes.baseAddress { (base + at).initialize(from: source, count: bytes.count) }
            return at + bytes.count
        }
    }

    /// Short printable ASCII: shown as is.
    private static func isPlain(_ text: String) -> Bool {
        withBytes(text) { b in
            guard b.count <= 100 else { return false }
            for i in 0..<b.count where b[i] < 0x20 || b[i] >= 0x7F { return false }
            return true
        }
    }

    private static func appendQuoted(_ text: String, to out: inout String) {
        out += "“"
        if isPlain(text) {
            out += text
        } else {
            var count = 0
            for scalar in text.unicodeScalars {
                if count == 100 {
                    out += "…"
                    break
                }
                count += 1
                let v = scalar.value
                if v < 0x20 || (0x7F...0x9F).contains(v) || (0x200B...0x200F).contains(v)
                    || (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0xFEFF
                {
                    out += "\\u{" + String(v, radix: 16) + "}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        out += "”"
    }
}
