import ATSModel
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

/// Which host the app holds: the SSL policy checks it, Basic X.509 reports it unchecked.
public enum HostChoice: Hashable, Sendable {
    /// The host of the URL the chain came from (none for files).
    case target
    /// A host the user typed (or gave with `--host`).
    case typed(String)

    /// The host this choice names for a target whose own host is `targetHost`.
    /// - Parameter targetHost: The URL's host; empty for files.
    /// - Returns: The host name or address; empty for none.
    public func host(targetHost: String) -> String {
        switch self {
        case .target: targetHost
        case .typed(let h): h
        }
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
    /// Whether ATS and NSPinnedDomains are applied (`--ats`, `--ats-plist`, `i`).
    public var enabled = false
    /// The app's configuration: ATS's defaults until an Info.plist is loaded.
    public var configuration = ATSConfiguration()
    /// The Info.plist the configuration came from; nil for ATS's defaults.
    public var source: String?
    /// The platform whose rules apply (`I`).
    public var platform: ATSPlatform = .current
    /// The scheme the app loads (`http://` targets are refused by ATS unless allowed).
    public var scheme: URLScheme = .https

    /// ATS off, with ATS's defaults ready.
    public init() {}

    /// The ATS settings of one evaluation; nil when ATS is off.
    public var settings: ATSSettings? {
        enabled ? ATSSettings(configuration: configuration, platform: platform, scheme: scheme, source: source) : nil
    }

    /// `ATS off`, `ATS defaults ios26`, `ATS Info.plist ios16`, for the settings line.
    public var summary: String {
        guard enabled else { return "ATS off" }
        let name = source.map { String($0.split(separator: "/").last ?? Substring($0)) } ?? "defaults"
        return "ATS \(name) \(platform.rawValue)"
    }
}
