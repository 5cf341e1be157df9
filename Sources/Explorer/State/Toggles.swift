import TLSProbe
import TrustCore

/// Which certificates are trusted as anchors: the three configurations apps meet.
public enum AnchorChoice: String, Hashable, Sendable, CaseIterable {
    /// SecTrustSetAnchorCertificates with the target's anchor: system roots stop being trusted
    /// (apple-trust.md §8 pitfall 3).
    case targetOnly = "anchor only"
    /// The anchor and the system roots: SecTrustSetAnchorCertificatesOnly(false) after it.
    case targetAndSystem = "anchor + system"
    /// No custom anchor: only the system roots, as URLSession's default handling.
    case systemOnly = "system only"
}

/// Which policy the trust object is created with.
public enum PolicyChoice: String, Hashable, Sendable, CaseIterable {
    /// SecPolicyCreateSSL(true, host).
    case sslWithHost = "SSL(host)"
    /// SecPolicyCreateSSL(true, nil): no host-name check (§8 pitfall 2).
    case sslWithoutHost = "SSL(nil)"
    /// SecPolicyCreateBasicX509(): no host, EKU, key-size or SHA-1 checks (§8 pitfall 1).
    case basicX509 = "Basic X.509"
}

/// Which host the SSL policy checks.
public enum HostChoice: Hashable, Sendable {
    /// The host of the URL the chain came from.
    case target
    /// `localhost`: a DNS name, matched only against SAN dNSName entries.
    case localhost
    /// `127.0.0.1`: an IP address, matched only against SAN iPAddress entries.
    case loopback
    /// A host the user typed.
    case typed(String)

    /// The host this choice names for a target whose own host is `targetHost`.
    /// - Parameter targetHost: The URL's host.
    /// - Returns: The host name or address to check.
    public func host(targetHost: String) -> String {
        switch self {
        case .target: targetHost
        case .localhost: "localhost"
        case .loopback: "127.0.0.1"
        case .typed(let h): h
        }
    }

    /// The next fixed choice, skipping one that names the same host as the target (so every
    /// press changes something): target -> localhost -> 127.0.0.1 -> target.
    /// - Parameter targetHost: The URL's host.
    /// - Returns: The next choice.
    public func next(targetHost: String) -> HostChoice {
        let order: [HostChoice] = [.target, .localhost, .loopback]
        let start = order.firstIndex(of: self) ?? 0
        for step in 1...order.count {
            let candidate = order[(start + step) % order.count]
            if candidate == .target || candidate.host(targetHost: targetHost) != targetHost { return candidate }
        }
        return .target
    }
}

/// Which SPKI pins the app's delegate checks after evaluation.
public enum PinChoice: String, Hashable, Sendable, CaseIterable {
    /// No pins: the pin step does not apply.
    case none
    /// The presented leaf's own key: matches, once evaluation passes.
    case leaf = "leaf pin"
    /// A key that is in no certificate: the delegate cancels with -999 (§8 pitfalls 5, 8).
    case wrong = "wrong pin"

    /// A SHA-256 value no real key hashes to, shown as a pin that matches nothing.
    static let wrongDigest = [UInt8](repeating: 0, count: 32)
}

/// When the evaluation happens, relative to the session's start.
public enum TimeChoice: String, Hashable, Sendable, CaseIterable {
    /// The clock at start-up.
    case now
    /// One year later: short-lived leaves have expired.
    case plusOneYear = "+1 year"
    /// One year earlier: freshly issued certificates are not yet valid.
    case minusOneYear = "-1 year"
    /// Five years later: most CAs have expired too.
    case plusFiveYears = "+5 years"

    /// The shift from now, in seconds (365-day years: the lessons need no calendar precision).
    public var offsetSeconds: Int64 {
        let year: Int64 = 365 * 86_400
        switch self {
        case .now: return 0
        case .plusOneYear: return year
        case .minusOneYear: return -year
        case .plusFiveYears: return 5 * year
        }
    }
}

/// Every setting the explorer lets the user change.
public struct Toggles: Hashable, Sendable {
    /// Which anchors are trusted.
    public var anchors: AnchorChoice = .targetOnly
    /// The policy.
    public var policy: PolicyChoice = .sslWithHost
    /// The host the SSL policy checks.
    public var host: HostChoice = .target
    /// The pins the delegate checks.
    public var pins: PinChoice = .none
    /// The evaluation time.
    public var time: TimeChoice = .now
    /// The lowest TLS version offered (changing it reconnects).
    public var tlsMinimum: TLSVersion = .tls1_2
    /// Whether missing intermediates are fetched from AIA URLs (changing it reconnects).
    public var fetchAIA = true
    /// The rule set.
    public var profile: RuleProfile = .apple

    /// The defaults: the lab's scenario settings (SSL with the URL's host, the scenario's anchor
    /// only, TLS 1.2 minimum, AIA on), under which each scenario meets its expectation.
    public init() {}
}

extension CaseIterable where Self: Equatable {
    /// The next case, wrapping around.
    func cycled() -> Self {
        let all = Array(Self.allCases)
        let i = all.firstIndex(of: self)!
        return all[(i + 1) % all.count]
    }
}
