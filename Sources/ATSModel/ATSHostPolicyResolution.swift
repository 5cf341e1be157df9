import TrustSupport

extension ATSSettings {
    /// The policy ATS applies to connections to `host`, resolved as Apple's network stack does
    /// (docs/ats.md): an NSExceptionDomains entry for the host (its own, or an ancestor's with
    /// NSIncludesSubdomains; an IP address or CIDR range on iOS 17) replaces the global keys;
    /// otherwise local hosts are exempt unless NSAllowsLocalNetworking is NO; otherwise
    /// NSAllowsArbitraryLoads turns ATS off, unless NSAllowsArbitraryLoadsForMedia,
    /// NSAllowsArbitraryLoadsInWebContent or NSAllowsLocalNetworking is present.
    /// - Parameter host: The host the app connects to; nil when the app gave none (the global keys apply).
    /// - Returns: What ATS requires of that connection, with the reason and any doubts.
    public func policy(forHost host: String?) -> ATSHostPolicy {
        var policy = resolve(host)
        guard platform.is26 else { return policy }
        if !policy.enforced, scheme == .https {
            policy.notes.append(Self.floorNote)
        } else if policy.matchedException != nil, policy.minimumTLSVersion < .tls1_2 {
            policy.notes.append(Self.exceptionDoubt(policy.minimumTLSVersion))
        }
        return policy
    }

    /// What a 26 SDK changes where ATS does not apply (D421).
    public static let floorNote =
        "ATS does not apply here, but an app built with a 26 SDK still refuses TLS below 1.2: Network.framework's default minimum when nothing sets one (Security-61901, protocol/SecProtocol.c, sec_protocol_options_get_default_min_tls_protocol_version); an app built with an older SDK would accept TLS 1.0."

    /// The doubt an exception below TLS 1.2 carries on a 26 SDK (D422).
    public static func exceptionDoubt(_ version: TLSVersion) -> String {
        "NSExceptionMinimumTLSVersion sets \(version) explicitly; Apple's published source (protocol/SecProtocolConfiguration.m) applies it as the minimum, and trustx assumes an app built with a 26 SDK keeps it, but whether the unpublished TLS stack raises it to the 26 SDKs' TLS 1.2 default is not known (docs/ats.md)."
    }

    /// The policy before the 26 SDKs' notes.
    private func resolve(_ host: String?) -> ATSHostPolicy {
        let c = configuration
        guard let host, let name = ATSHostName(host) else {
            return global(c, notes: ["No host is known, so no exception domain can apply: the global keys decide."])
        }
        var notes: [String] = []
        if let ip = name.address {
            if !platform.coversIPAddresses {
                return ATSHostPolicy(
                    enforced: false,
                    reason: "\(name.text) is an IP address, which ATS does not cover on iOS 16 and earlier",
                    allowsInsecureHTTP: true)
            }
            if let (e, how) = exception(forAddress: ip, name.text) {
                return excepted(e, how: how, notes: notes)
            }
        } else if let (e, how, extra) = exception(forName: name.text) {
            notes += extra
            return excepted(e, how: how, notes: notes)
        }
        if let why = name.localReason {
            if c.allowsLocalNetworking == false {
                notes.append("\(name.text) is \(why), but NSAllowsLocalNetworking is NO, so ATS applies to it.")
            } else {
                return ATSHostPolicy(
                    enforced: false, reason: "\(name.text) is \(why), which ATS exempts", allowsInsecureHTTP: true)
            }
        } else if name.address != nil {
            notes.append(
                "Since iOS 17 ATS covers IP addresses: \(name.text) needs an NSExceptionDomains entry (the address or a CIDR range) for exceptions."
            )
        }
        return global(c, notes: notes)
    }

    /// The policy of the global keys alone.
    private func global(_ c: ATSConfiguration, notes: [String]) -> ATSHostPolicy {
        var notes = notes
        if c.allowsArbitraryLoads == true {
            let present = [
                ("NSAllowsArbitraryLoadsForMedia", c.allowsArbitraryLoadsForMedia),
                ("NSAllowsArbitraryLoadsInWebContent", c.allowsArbitraryLoadsInWebContent),
                ("NSAllowsLocalNetworking", c.allowsLocalNetworking),
            ].filter { $0.1 != nil }.map(\.0)
            if present.isEmpty {
                return ATSHostPolicy(
                    enforced: false,
                    reason: "NSAllowsArbitraryLoads turns ATS off for hosts without an exception entry",
                    allowsInsecureHTTP: true, notes: notes)
            }
            notes.append(
                "NSAllowsArbitraryLoads is ignored because \(present.joined(separator: " and ")) \(present.count == 1 ? "is" : "are") present."
            )
        }
        var policy = ATSHostPolicy(reason: "ATS's defaults apply")
        policy.notes = notes
        return policy
    }

    /// The policy an exception entry sets; it replaces the global keys.
    private func excepted(_ e: ATSExceptionDomain, how: String, notes: [String]) -> ATSHostPolicy {
        var notes = notes
        if let text = e.minimumTLSVersionText, e.minimumTLSVersion == nil {
            notes.append(
                "NSExceptionMinimumTLSVersion '\(text)' is ignored (only TLSv1.0, TLSv1.1, TLSv1.2 and TLSv1.3 are read), so TLS 1.2 stays the minimum."
            )
        }
        if configuration.allowsArbitraryLoads == true {
            notes.append(
                "NSAllowsArbitraryLoads does not apply here: an exception entry replaces the global keys for its domain."
            )
        }
        if e.domain.contains(where: \.isUppercase) {
            notes.append(
                "The key \(e.domain) has upper case: Apple's documentation asks for lower case, and its lookup compares keys as written."
            )
        }
        let insecure = e.allowsInsecureHTTPLoads ?? false
        let fs = e.requiresForwardSecrecy ?? true
        var policy = ATSHostPolicy(
            enforced: true, reason: how, matchedException: e.domain,
            minimumTLSVersion: e.minimumTLSVersion ?? .tls1_2, requiresForwardSecrecy: fs, allowsInsecureHTTP: insecure)
        policy.restrictsCipherSuites = fs || !insecure
        policy.notes = notes
        return policy
    }

    /// The entry for a name: its own key, else the nearest ancestor whose entry has
    /// NSIncludesSubdomains (every ancestor is tried, as Apple's network stack does).
    private func exception(forName name: String) -> (ATSExceptionDomain, String, [String])? {
        let entries = configuration.exceptionDomains
        func entry(_ key: String) -> ATSExceptionDomain? {
            entries.first { ATSHostName.normalizedKey($0.domain) == key }
        }
        if let e = entry(name) { return (e, "NSExceptionDomains entry \(e.domain)", []) }
        var labels = name.split(separator: ".", omittingEmptySubsequences: false)
        var depth = 0
        while labels.count > 1 {
            labels.removeFirst()
            depth += 1
            let parent = labels.joined(separator: ".")
            guard let e = entry(parent), e.includesSubdomains == true else { continue }
            let how = "matched by \(name)'s \(depth == 1 ? "parent" : "ancestor") \(e.domain) with NSIncludesSubdomains"
            let doubt =
                depth == 1
                ? []
                : [
                    "\(name) is \(depth) labels below \(e.domain): Apple's documentation describes NSIncludesSubdomains as covering subdomains one label down, while its network stack walks every ancestor; trustx follows the implementation (docs/ats.md)."
                ]
            return (
                e, how + (depth == 1 ? "" : "; Apple's documentation and implementation disagree on deeper subdomains"),
                doubt
            )
        }
        return nil
    }

    /// The entry for an address: its own key, else the CIDR range with the longest prefix.
    private func exception(forAddress ip: [UInt8], _ text: String) -> (ATSExceptionDomain, String)? {
        let entries = configuration.exceptionDomains
        if let e = entries.first(where: {
            ATSHostName.normalizedKey($0.domain) == text || parseIPAddress($0.domain) == ip
        }) {
            return (e, "NSExceptionDomains entry \(e.domain)")
        }
        var best: (ATSExceptionDomain, Int)?
        for e in entries {
            guard let (network, prefix) = ATSHostName.cidr(e.domain), network.count == ip.count,
                ATSHostName.inRange(ip, network, prefix), prefix >= (best?.1 ?? 0)
            else { continue }
            best = (e, prefix)
        }
        return best.map { ($0.0, "NSExceptionDomains range \($0.0.domain) contains \(text)") }
    }
}

/// A host as ATS compares it: lower case, one trailing dot removed, IPv6 brackets removed.
struct ATSHostName {
    var text: String
    var address: [UInt8]?

    init?(_ host: String) {
        var h = Substring(host.lowercased())
        if h.hasSuffix(".") { h = h.dropLast() }
        if h.hasPrefix("["), h.hasSuffix("]") { h = h.dropFirst().dropLast() }
        guard !h.isEmpty else { return nil }
        text = String(h)
        address = parseIPAddress(text)
    }

    /// An exception key as compared with hosts.
    static func normalizedKey(_ key: String) -> String {
        var k = Substring(key.lowercased())
        if k.hasSuffix(".") { k = k.dropLast() }
        return String(k)
    }

    /// Why the host is one ATS exempts as local ("direct"), nil when it is not: loopback and
    /// link-local addresses, unqualified names and `.local` names.
    var localReason: String? {
        if let a = address {
            if a.count == 4 {
                if a[0] == 127 { return "a loopback address" }
                if a[0] == 169 && a[1] == 254 { return "a link-local address" }
            } else {
                if a == [UInt8](repeating: 0, count: 15) + [1] { return "the loopback address" }
                if a[0] == 0xFE && a[1] & 0xC0 == 0x80 { return "a link-local address" }
            }
            return nil
        }
        if !text.contains(".") { return "an unqualified name" }
        if text.hasSuffix(".local") { return "a .local name" }
        return nil
    }

    /// `192.0.2.0/24` or `2001:db8::/32`: the network's bytes and the prefix length.
    static func cidr(_ key: String) -> ([UInt8], Int)? {
        let parts = key.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let network = parseIPAddress(String(parts[0])), let prefix = Int(parts[1]),
            prefix >= 0, prefix <= network.count * 8
        else { return nil }
        return (network, prefix)
    }

    static func inRange(_ ip: [UInt8], _ network: [UInt8], _ prefix: Int) -> Bool {
        var bits = prefix
        for i in 0..<ip.count where bits > 0 {
            let mask: UInt8 = bits >= 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if ip[i] & mask != network[i] & mask { return false }
            bits -= 8
        }
        return true
    }
}
