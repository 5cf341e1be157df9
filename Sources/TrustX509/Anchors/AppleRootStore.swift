import AppleTrustData
import Synchronization
import TrustSupport

/// Apple's root store, compiled in from one tag of Apple's security_certificates
/// (`AppleTrustData`): the roots trustd's system anchor source holds, with the roots Apple
/// removed, the per-root policy constraints and the EV policy OIDs beside them.
///
/// Nothing is decoded at construction. A lookup by subject hashes the name (OpenSSL's subject
/// hash, which the generator recorded for every root), finds the candidate indices in
/// `AppleRootIndex.bySubjectHash` and decodes only those roots, once each; membership compares
/// the recorded SHA-256 of the candidates without decoding any. So an evaluation that reaches
/// one root decodes one root, not 156.
///
/// trustd trusts every root of its system anchor source for every policy (SecCertificateSource.c,
/// `SecSystemAnchorSourceContains` takes no account of the policy, and
/// `CopyUsageConstraintsForSystemAnchor` gives a plain "trust as root" setting), so this store
/// does the same; docs/steps.md says what the constraints and EV data change.
///
/// Thread-safe: decoded roots are cached behind one `Mutex`.
public final class AppleRootStore: Sendable {
    /// The one store, shared: its cache of decoded roots lives as long as the process.
    public static let shared = AppleRootStore()

    private let decoded = Mutex<[Int: Certificate]>([:])
    private let removed = Mutex<[String: String]?>(nil)

    /// A store over the compiled-in data. Use `shared` unless a fresh cache is wanted.
    public init() {}

    /// How many roots this store has decoded so far: lookups decode only their candidates.
    package var decodedCount: Int { decoded.withLock { $0.count } }

    /// How many roots Apple ships in this tag.
    public var count: Int { AppleRootIndex.sha256.count }

    /// The security_certificates tag the roots come from.
    public var tag: String { AppleTrustDataSource.tag }

    /// Root `index` (0 ..< `count`), decoded on first use; nil if it does not decode, which the
    /// data's test rules out for the compiled tag.
    public func certificate(at index: Int) -> Certificate? {
        guard AppleRootCertificates.base64.indices.contains(index) else { return nil }
        if let hit = decoded.withLock({ $0[index] }) { return hit }
        guard let der = Base64.decode(AppleRootCertificates.base64[index]),
            let cert = try? Certificate(der: der)
        else { return nil }
        decoded.withLock { $0[index] = cert }
        return cert
    }

    /// The file name of root `index` in security_certificates' certificates/roots.
    public func fileName(at index: Int) -> String {
        AppleRootIndex.fileName.indices.contains(index) ? AppleRootIndex.fileName[index] : ""
    }

    /// Every root, in the data's order. Decodes them all: for listing, not for evaluation.
    public func allCertificates() -> [Certificate] {
        (0..<count).compactMap { certificate(at: $0) }
    }

    /// The index of the root with this SHA-256 (of its DER), if Apple ships it.
    public func index(ofSHA256 digest: [UInt8]) -> Int? {
        let hex = hexString(digest).uppercased()
        return AppleRootIndex.sha256.firstIndex(of: hex)
    }

    /// The index of this certificate among Apple's roots, found through its subject hash.
    public func index(of certificate: Certificate) -> Int? {
        let hex = hexString(certificate.sha256).uppercased()
        let candidates = AppleRootIndex.bySubjectHash[SystemTrustStore.subjectHash(certificate.subject)] ?? []
        return candidates.first { AppleRootIndex.sha256[$0] == hex }
    }

    /// The folder of certificates/removed ("removed", "reissued", "invalid") that lists a
    /// certificate with this SHA-256, or nil when Apple did not remove it.
    public func removedFolder(ofSHA256 digest: [UInt8]) -> String? {
        let table = removed.withLock { table in
            if let table { return table }
            var built: [String: String] = [:]
            for entry in AppleRemovedRoots.entries { built[entry.sha256] = entry.folder }
            table = built
            return built
        }
        return table[hexString(digest).uppercased()]
    }

    /// The Apple policy OIDs constraints.json lists for the root with this SHA-256, by anchor
    /// type ("system" for the roots of this store, "platform", "custom"), types in name order.
    public func constraints(ofSHA256 digest: [UInt8]) -> [(type: String, policies: [String])] {
        let hex = hexString(digest).uppercased()
        return AppleRootConstraints.byType.keys.sorted().compactMap { type in
            AppleRootConstraints.byType[type]?[hex].map { (type, $0) }
        }
    }

    /// The EV policy OIDs EVRoots.json allows under the root with this SHA-256 (empty: not an EV root).
    public func evPolicies(ofSHA256 digest: [UInt8]) -> [String] {
        AppleEVRoots.policies[hexString(digest).uppercased()] ?? []
    }
}

extension AppleRootStore: IssuerSource {
    /// The roots whose subject matches `name`, decoding only those whose subject hash is `name`'s.
    public func certificates(withSubject name: DistinguishedName) -> [Certificate] {
        let candidates = AppleRootIndex.bySubjectHash[SystemTrustStore.subjectHash(name)] ?? []
        return candidates.compactMap { certificate(at: $0) }.filter { $0.subject.matches(name) }
    }

    /// Whether this exact certificate (by SHA-256 of its DER) is one of Apple's roots.
    public func contains(_ certificate: Certificate) -> Bool { index(of: certificate) != nil }

    public var location: String { "Apple's root store, \(tag) (\(count) roots, compiled in)" }
    public var storeName: String { "apple" }
    public var storeVersion: String { tag }

    /// "removed by Apple" for a root Apple took out of its store.
    public func removalNote(for certificate: Certificate) -> String? {
        guard let folder = removedFolder(ofSHA256: certificate.sha256) else { return nil }
        return folder == "removed"
            ? "removed by Apple (security_certificates' certificates/removed)"
            : "removed by Apple (certificates/removed/\(folder))"
    }
}
