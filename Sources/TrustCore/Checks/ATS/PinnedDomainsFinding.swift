import ATSModel

/// What the `pinned-domains` step found (NSPinnedDomains, checked by Apple's SSL policy as part
/// of evaluation).
public enum PinnedDomainsFinding: Hashable, Sendable {
    /// The policy never reads NSPinnedDomains (Basic X.509, or SSL without a host).
    case notConsulted(reason: String)
    /// No entry matches the host.
    case noEntry(host: String, entries: Int)
    case leafMatched(domains: [String], pin: String)
    case leafNotMatched(domains: [String], pins: Int, usable: Int)
    case caMatched(domains: [String], pin: String)
    case caNotMatched(domains: [String], pins: Int, usable: Int, pathLength: Int)

    /// Apple's check key for failing findings.
    public var appleFailure: AppleFailure? {
        switch self {
        case .leafNotMatched: AppleFailure("LeafSPKISHA256", .pinning, -9886)
        case .caNotMatched: AppleFailure("CAspkiSHA256", .pinning, -9886)
        default: nil
        }
    }

    /// One line, no newline.
    public var title: String {
        switch self {
        case .notConsulted: "NSPinnedDomains not consulted"
        case .noEntry(let host, _): "No NSPinnedDomains entry for \(host)"
        case .leafMatched: "Leaf key matches NSPinnedLeafIdentities"
        case .leafNotMatched(_, let pins, let usable):
            pins == 0
                ? "NSPinnedLeafIdentities is empty: always fails"
                : usable == 0
                    ? "No valid NSPinnedLeafIdentities: always fails"
                    : "Leaf key matches none of NSPinnedLeafIdentities"
        case .caMatched: "CA key matches NSPinnedCAIdentities"
        case .caNotMatched(_, let pins, let usable, let length):
            pins == 0
                ? "NSPinnedCAIdentities is empty: always fails"
                : usable == 0
                    ? "No valid NSPinnedCAIdentities: always fails"
                    : length < 2
                        ? "NSPinnedCAIdentities: the path has no CA certificate"
                        : "No CA key matches NSPinnedCAIdentities"
        }
    }

    /// The rule in plain words.
    public var detail: String {
        let rule =
            "NSPinnedDomains pins apply on top of normal evaluation and never relax it; a failure is an evaluation failure (Apple \(self.isLeaf ? "LeafSPKISHA256" : "CAspkiSHA256"), errSSLATSCertificateTrustViolation) and URLSession reports URLError -1200 (-999 when the app's delegate evaluates and cancels)."
        switch self {
        case .notConsulted(let reason): return "\(reason)."
        case .noEntry(_, let entries):
            return entries == 0
                ? "The configuration has no NSPinnedDomains."
                : "None of the \(entries) NSPinnedDomains keys equals the host (case-insensitively, one trailing dot removed), or its parent with NSIncludesSubdomains."
        case .leafMatched(let domains, let pin):
            return
                "The leaf's SPKI SHA-256 is \(pin), listed under \(domains.joined(separator: ", ")). Within a category one match is enough; leaf and CA categories must both pass."
        case .leafNotMatched(let domains, let pins, let usable):
            return
                "\(Self.counted(pins, usable)) under \(domains.joined(separator: ", ")); the leaf's SPKI SHA-256 is not among them. \(rule)"
        case .caMatched(let domains, let pin):
            return
                "A CA certificate of the built path (any certificate after the leaf, including a root from the anchors or the system store) has SPKI SHA-256 \(pin), listed under \(domains.joined(separator: ", "))."
        case .caNotMatched(let domains, let pins, let usable, let length):
            let why =
                length < 2
                ? "the built path is the leaf alone, so there is no CA certificate to match"
                : "no certificate after the leaf in the built path has one of them"
            return "\(Self.counted(pins, usable)) under \(domains.joined(separator: ", ")); \(why). \(rule)"
        }
    }

    private var isLeaf: Bool {
        switch self {
        case .leafMatched, .leafNotMatched: true
        default: false
        }
    }

    private static func counted(_ pins: Int, _ usable: Int) -> String {
        if pins == 0 { return "The list is empty, which always fails" }
        let invalid = pins - usable
        let base = "\(pins) identit\(pins == 1 ? "y" : "ies")"
        return invalid == 0
            ? base : "\(base), \(invalid) of them invalid (not the base64 of 32 bytes, which never matches)"
    }
}

extension ATSFinding: RuleFinding {
    var storage: Finding.Storage { .ats(self) }

    /// ATS failures are the TLS layer's, not SecTrust results: `failure` carries their code.
    var appleFailure: AppleFailure? { nil }
}

extension PinnedDomainsFinding: RuleFinding {
    var storage: Finding.Storage { .pinnedDomains(self) }
}
