import TrustSupport
import TrustX509

/// Who evaluates the chain: trustd judges a root's dates differently for Apple's own programs
/// (Security, trust/trustd/SecPolicyServer.c, `_ShouldApplyEarlyExpirationCheck`).
public enum TrustClient: String, Hashable, Sendable, CaseIterable {
    /// A third-party app (the default): anchors expire on their notAfter.
    case app
    /// Safari, Mail or another of Apple's own programs (a platform binary, or a signing identifier
    /// starting with `com.apple.`): a root valid for more than 120 days expires 60 days early.
    case safari
}

/// trustd's two adjustments to the plain date check, both in Security's
/// trust/trustd/SecPolicyServer.c, `SecCertificateIsValidWithAdjustments` (docs/steps.md, `validity`):
/// Apple's own anchors are never checked for expiry (`_ShouldSkipExpirationCheck`, every caller and
/// policy), and for Apple's own programs the path's root is judged 60 days later
/// (`_ShouldApplyEarlyExpirationCheck`), unless it is a user- or admin-trusted anchor or was valid for
/// 120 days or less. The second is gated by `_SecTrustEarlyAnchorExpirationEnabled`
/// (featureflags/featureflags.c), which is false unless the build is an Apple-internal release.
public enum AnchorExpiryRules {
    /// How far early a root expires for Apple's own programs: 60 days.
    public static let earlyBy: Int64 = 60 * 86_400
    /// A root valid for this long or less is not moved (trustd keeps such roots for its unit tests).
    public static let shortLived: Int64 = 2 * earlyBy

    /// SHA-256 (lowercase hex) of the anchors whose dates trustd never checks, with their names:
    /// Apple's own roots (OSX/utilities/SecAppleAnchor.c, `getAnchors`), Apple External EC Root
    /// (OSX/sec/Security/AppleExternalRootCertificates.h) and the Syniverse Private R Root CA whose
    /// DER SecPolicyServer.c embeds; each digest recomputed from the DER Apple publishes.
    public static let neverExpiring: [String: String] = SystemPinning.appleAnchorNames.merging([
        "72566e6f66300cfd24e5e685a2f15a749de04bb03850779196636e07230f911e": "Apple External EC Root",
        "456d01bfa3d4c8642ba1a0be0fdd7f69ed69373fdebb8620814a46a8e1602bcc": "Syniverse Private R Root CA",
    ]) { own, _ in own }

    /// `neverExpiring` keyed as certificates are. Seven keys are searched in order rather than
    /// hashed: comparing a certificate's first digest word with each costs less than hashing
    /// its whole digest, and every certificate of every evaluation is asked.
    static let neverExpiringKeys: [(key: DigestKey, name: String)] = neverExpiring.map { hex, name in
        let bytes = stride(from: 0, to: hex.count, by: 2).map { i -> UInt8 in
            let start = hex.index(hex.startIndex, offsetBy: i)
            return UInt8(hex[start..<hex.index(start, offsetBy: 2)], radix: 16)!
        }
        return (DigestKey(bytes), name)
    }

    /// Which adjustment applied to a certificate.
    public enum Kind: Hashable, Sendable {
        /// One of `neverExpiring`: its dates are not checked.
        case neverExpires(name: String)
        /// The root is judged at `judgedAt`, 60 days after the evaluation time.
        case early(judgedAt: Timestamp)
    }

    /// What the rules decided for one certificate.
    public struct Outcome: Hashable, Sendable {
        /// The adjustment.
        public var kind: Kind
        /// The certificate's notAfter.
        public var notAfter: Timestamp

        /// Creates an outcome.
        public init(kind: Kind, notAfter: Timestamp) {
            self.kind = kind
            self.notAfter = notAfter
        }

        /// Whether the adjustment fails the certificate: judged 60 days later, it has expired.
        public var expires: Bool {
            if case .early(let at) = kind { return at > notAfter }
            return false
        }
    }

    /// The adjustment trustd makes to `certificate`'s date check, nil when the plain check applies.
    /// - Parameters:
    ///   - certificate: The certificate judged.
    ///   - isRoot: Whether it is the path's root: the trusted anchor, or a self-signed root that is
    ///     not trusted (trustd asks early expiry of nothing else).
    ///   - userAnchor: Whether the path ends at an anchor the user or an administrator trusted
    ///     (trust settings, a configuration profile), which early expiry exempts.
    ///   - client: Who evaluates.
    ///   - time: The evaluation time.
    public static func outcome(
        _ certificate: Certificate, isRoot: Bool, userAnchor: Bool, client: TrustClient, time: Timestamp
    ) -> Outcome? {
        let identity = certificate.identity
        if let name = neverExpiringKeys.first(where: { $0.key == identity })?.name {
            return Outcome(kind: .neverExpires(name: name), notAfter: certificate.notAfter)
        }
        guard client == .safari, isRoot, !userAnchor,
            certificate.notAfter.secondsSinceEpoch - certificate.notBefore.secondsSinceEpoch > shortLived
        else { return nil }
        return Outcome(kind: .early(judgedAt: time.adding(seconds: earlyBy)), notAfter: certificate.notAfter)
    }

    /// When `root` expires for Apple's own programs, as the path's root of an anchor nobody on
    /// the device trusted by hand: its notAfter less 60 days; nil for one of Apple's
    /// never-expiring anchors or a root valid for 120 days or less, which the rule leaves alone.
    public static func earlyExpiry(of root: Certificate) -> Timestamp? {
        let identity = root.identity
        guard !neverExpiringKeys.contains(where: { $0.key == identity }),
            root.notAfter.secondsSinceEpoch - root.notBefore.secondsSinceEpoch > shortLived
        else { return nil }
        return root.notAfter.adding(seconds: -earlyBy)
    }

    /// Why the early rule is in doubt, for every text that applies it.
    public static let earlyDoubt =
        "Security-61901 enables this only on Apple-internal builds (_SecTrustEarlyAnchorExpirationEnabled); customer devices may not apply it"

    /// One line, no newline.
    public static func title(_ o: Outcome) -> String {
        switch o.kind {
        case .neverExpires(let name): "\(name): Apple's anchor, never checked for expiry"
        case .early(let at) where o.expires:
            "Expires early for Safari: judged at \(at.rfc3339), after notAfter \(o.notAfter.rfc3339)"
        case .early(let at): "Valid for Safari at \(at.rfc3339), 60 days on (early anchor expiry)"
        }
    }

    /// The rule in plain words, citing its source.
    public static func detail(_ o: Outcome) -> String {
        let source = "Security, trust/trustd/SecPolicyServer.c"
        switch o.kind {
        case .neverExpires(let name):
            return
                "\(name) is one of the anchors trustd never checks for expiry, whoever asks and under every policy (\(source), _ShouldSkipExpirationCheck); its notAfter is \(o.notAfter.rfc3339)."
        case .early(let at):
            let rule =
                "For Apple's own programs (Safari, Mail: platform binaries and com.apple.* callers) trustd judges a root valid for more than 120 days, unless a user or administrator trusted it, 60 days after the evaluation time, at \(at.rfc3339) (\(source), _ShouldApplyEarlyExpirationCheck); an app's evaluation uses the time itself."
            let verdict =
                o.expires
                ? " This root's notAfter, \(o.notAfter.rfc3339), is before that: TemporalValidity, errSecCertificateExpired (-67818)."
                : " This root's notAfter, \(o.notAfter.rfc3339), is after it."
            return rule + verdict + " " + earlyDoubt + " (docs/steps.md)."
        }
    }
}
