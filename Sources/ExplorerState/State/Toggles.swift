import ATSModel
import TLSProbe
import TrustCore
import TrustSupport
import TrustX509

/// Which policy the trust object is created with.
public enum PolicyChoice: String, Hashable, Sendable, CaseIterable {
    /// SecPolicyCreateSSL(true, host).
    case sslWithHost = "SSL(host)"
    /// SecPolicyCreateSSL(true, nil): no host-name check (the pitfall of passing a nil host).
    case sslWithoutHost = "SSL(nil)"
    /// SecPolicyCreateBasicX509(): no host, EKU, key-size or SHA-1 checks.
    case basicX509 = "Basic X.509"
}

/// Which host the SSL policy checks.
public enum HostChoice: Hashable, Sendable {
    /// The host of the URL the chain came from.
    case target
    /// A host the user typed (or gave with `--host`).
    case typed(String)

    /// The host this choice names for a target whose own host is `targetHost`.
    /// - Parameter targetHost: The URL's host.
    /// - Returns: The host name or address to check.
    public func host(targetHost: String) -> String {
        switch self {
        case .target: targetHost
        case .typed(let h): h
        }
    }
}

/// A custom anchor and the file it was read from, if any (the copied command names that file
/// rather than writing the certificate out again).
public struct AnchorEntry: Hashable, Sendable {
    /// The anchor.
    public var certificate: Certificate
    /// The file it came from; nil for a certificate made an anchor in the session.
    public var file: String?

    /// Creates an entry.
    public init(_ certificate: Certificate, file: String? = nil) {
        self.certificate = certificate
        self.file = file
    }
}

/// Every setting the explorer lets the user change: the same settings `trustx check` takes, so
/// any state can be written back as a command line.
public struct Toggles: Hashable, Sendable {
    /// Anchors added in the session (`a` on a certificate, `F` from a file), on top of the target's.
    public var addedAnchors: [AnchorEntry] = []
    /// The target's own anchors the user stopped trusting.
    public var removedAnchors: Set<Certificate> = []
    /// SecTrustSetAnchorCertificatesOnly: with custom anchors, whether the system roots stop
    /// being trusted (Apple's default once anchors are set).
    public var anchorsOnly = true
    /// Whether custom anchors are set by the app or trusted on the device through a profile.
    public var anchorClass: CustomAnchorClass = .app
    /// The policy.
    public var policy: PolicyChoice = .sslWithHost
    /// The host the SSL policy checks.
    public var host: HostChoice = .target
    /// SPKI SHA-256 pins the app's delegate checks after evaluation.
    public var pins: [[UInt8]] = []
    /// The evaluation time; nil for the session's "now".
    public var time: Timestamp?
    /// The lowest TLS version offered (changing it reconnects).
    public var tlsMinimum: TLSVersion = .tls1_2
    /// The highest TLS version offered (changing it reconnects).
    public var tlsMaximum: TLSVersion = .tls1_3
    /// Whether missing intermediates are fetched from AIA URLs (changing it reconnects).
    public var fetchAIA = true
    /// The rule set.
    public var profile: RuleProfile = .apple
    /// App Transport Security and NSPinnedDomains, as the app's Info.plist declares them.
    public var ats = ATSChoice()
    /// CRLs the path is checked against (`--crl`), fixed for the session.
    public var crls = CRLFiles()
    /// Whether revocation information is fetched over the network (`--revocation`, `R`), as
    /// SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod) would.
    public var fetchRevocation = false
    /// Whether every certificate below the anchor needs a positive revocation answer
    /// (`--require-revocation`, `V`), as kSecRevocationRequirePositiveResponse asks.
    public var requireRevocation = false
    /// Which roots are the system's (`--store`, `s`).
    public var store: TrustStoreChoice = .apple

    /// The defaults: SSL with the URL's host, the target's anchors only, TLS 1.2 to 1.3, AIA
    /// on, now, Apple's rules: under these each lab scenario meets its expectation.
    public init() {}

    /// Whether a connection made under `self` can serve `other` (TLS versions and AIA fetching
    /// are decided while connecting; everything else only re-evaluates).
    func sameConnection(as other: Toggles) -> Bool {
        // ATS decides what the client offers (its TLS floor and cipher suites), so the server
        // is asked again when ATS changes.
        tlsMinimum == other.tlsMinimum && tlsMaximum == other.tlsMaximum && fetchAIA == other.fetchAIA
            && ats == other.ats
    }
}

/// The CRL files given with `--crl` and what they hold; equal when the same files are named (they
/// are read once, at start-up).
public struct CRLFiles: Hashable, Sendable {
    /// The files, in the order given.
    public var paths: [String]
    /// Their CRLs.
    public var lists: [RevocationList]

    /// Creates a set of CRL files; none by default.
    public init(paths: [String] = [], lists: [RevocationList] = []) {
        self.paths = paths
        self.lists = lists
    }

    /// Compares the files named.
    public static func == (a: CRLFiles, b: CRLFiles) -> Bool { a.paths == b.paths }

    /// Hashes the files named.
    public func hash(into hasher: inout Hasher) { hasher.combine(paths) }
}

/// Whether ATS is applied, with which configuration and platform.
public struct ATSChoice: Hashable, Sendable {
    /// Whether ATS and NSPinnedDomains are applied (`i`).
    public var enabled = false
    /// The app's configuration: ATS's defaults until an Info.plist is loaded.
    public var configuration = ATSConfiguration()
    /// The Info.plist the configuration came from; nil for ATS's defaults.
    public var source: String?
    /// The platform whose rules apply (`I`).
    public var platform: ATSPlatform = .ios17
    /// The scheme the app loads (`http://` targets are refused by ATS unless allowed).
    public var scheme: URLScheme = .https

    /// ATS off, with ATS's defaults ready.
    public init() {}

    /// The ATS settings of one evaluation; nil when ATS is off.
    public var settings: ATSSettings? {
        enabled ? ATSSettings(configuration: configuration, platform: platform, scheme: scheme, source: source) : nil
    }

    /// `ATS off`, `ATS defaults ios17`, `ATS Info.plist ios16`, for the settings line.
    public var summary: String {
        guard enabled else { return "ATS off" }
        let name = source.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "defaults"
        return "ATS \(name) \(platform.rawValue)"
    }
}

extension CaseIterable where Self: Equatable {
    /// The next case, wrapping around.
    func cycled() -> Self {
        let all = Array(Self.allCases)
        let i = all.firstIndex(of: self)!
        return all[(i + 1) % all.count]
    }
}
