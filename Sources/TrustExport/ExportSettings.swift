import ATSModel
import TrustCore
import TrustOptions
import TrustSupport
import TrustX509

/// A file the settings were read from: exports name it rather than embed it where the tool can
/// read it as it is.
public struct ExportFile: Hashable, Sendable {
    /// The path as the user gave it.
    public var path: String
    /// The certificates read from it, in file order.
    public var certificates: [Certificate]
    /// Whether the file is PEM (curl's --cacert and `openssl x509 -in` read PEM by default).
    public var isPEM: Bool

    /// Creates a file entry.
    public init(path: String, certificates: [Certificate], isPEM: Bool) {
        self.path = path
        self.certificates = certificates
        self.isPEM = isPEM
    }
}

/// Where a connection goes instead of the target's own address (`--connect-to`).
public struct ExportEndpoint: Hashable, Sendable {
    /// A host name or IP address.
    public var host: String
    /// The port.
    public var port: Int

    /// Creates an endpoint.
    public init(host: String, port: Int) {
        self.host = host
        self.port = port
    }
}

/// Everything an export needs: the settings a user is looking at (anchors, policy, pins,
/// versions, target) and, when the chain was evaluated, the built path that pins are classified
/// against. A plain value, so that `trustx export` and the explorer build it from what they hold.
public struct ExportSettings: Sendable {
    /// The server's name as the app's URL has it (`example.com`), nil for chains from files.
    public var host: String?
    /// The server's port.
    public var port: Int
    /// Where to connect instead (`--connect-to`), keeping `host` for SNI and the host check.
    public var connectTo: ExportEndpoint?
    /// The custom anchors' files, in order.
    public var anchorFiles: [ExportFile]
    /// How the custom anchors are trusted: set by the app in its delegate, or installed on the device.
    public var anchorClass: CustomAnchorClass
    /// Whether the system roots stay trusted beside the custom anchors
    /// (SecTrustSetAnchorCertificatesOnly(false)); true when there are no custom anchors.
    public var keepsSystemAnchors: Bool
    /// The policy.
    public var policy: TrustPolicy
    /// The SPKI SHA-256 pins, in the order given.
    public var pins: [[UInt8]]
    /// The lowest TLS version offered (URLSession's is 1.2).
    public var minimumTLSVersion: TLSVersion
    /// The highest TLS version offered, nil for the newest.
    public var maximumTLSVersion: TLSVersion?
    /// The evaluation time when it is not now (`--at`), as seconds since 1970.
    public var time: Timestamp?
    /// The chain files (`--chain`), for chains not fetched from a server.
    public var chainFiles: [ExportFile]
    /// The built path of the evaluation, leaf first; empty when the chain was not evaluated.
    public var path: [Certificate]
    /// The certificates the server presented (or the chain files held), leaf first.
    public var presented: [Certificate]
    /// NSIncludesSubdomains for the exported NSPinnedDomains entry.
    public var includesSubdomains: Bool
    /// The rule set evaluated with (`--profile`).
    public var profile: RuleProfile = .apple
    /// The server name sent instead of the host (`--sni`); nil for the host's own.
    public var serverName: String? = nil
    /// Whether no server name is sent at all (`--no-sni`).
    public var sendsNoServerName = false
    /// The STARTTLS protocol spoken before TLS (`--starttls`, `smtp://`...), as its option value.
    public var startTLS: String? = nil
    /// The HTTP CONNECT proxy given with `--proxy` (`http://host:port`), nil for none or the environment's.
    public var proxy: String? = nil
    /// The client certificate's file (`--client-cert`), nil for none.
    public var clientCertificate: String? = nil
    /// Whether missing intermediates are fetched from AIA URLs (off with `--no-aia`).
    public var fetchesAIA = true
    /// Whether App Transport Security was applied (`--ats`, `--ats-plist`): where from, nil for off.
    public var ats: ATSSource? = nil
    /// The CRL files checked against (`--crl`).
    public var revocationLists: [String] = []
    /// Whether revocation information is fetched over the network (`--revocation`).
    public var fetchesRevocation = false
    /// Whether every certificate needs a positive revocation answer: the Swift code adds SecPolicyCreateRevocation with kSecRevocationRequirePositiveResponse.
    public var requiresRevocation = false
    /// Whether Safari or another of Apple's own programs evaluates (`--client safari`), not an app.
    public var evaluatesAsSafari = false
    /// Whose roots are the system's (`--store`): Apple's, this machine's OpenSSL store, or files.
    public var systemStore: TrustStoreChoice = .apple
    /// The root only one of Apple's store and this machine's anchors the evaluated chain at (the
    /// evaluation's "trusted by" comparison), nil when they agree or nothing was evaluated.
    public var rootInOneStoreOnly: Certificate? = nil

    /// Creates export settings; by default SSL without a host, the system roots, no pins.
    public init(
        host: String? = nil, port: Int = 443, connectTo: ExportEndpoint? = nil, anchorFiles: [ExportFile] = [],
        anchorClass: CustomAnchorClass = .app, keepsSystemAnchors: Bool = true,
        policy: TrustPolicy = .ssl(host: nil), pins: [[UInt8]] = [], minimumTLSVersion: TLSVersion = .tls1_2,
        maximumTLSVersion: TLSVersion? = nil, time: Timestamp? = nil, chainFiles: [ExportFile] = [],
        path: [Certificate] = [], presented: [Certificate] = [], includesSubdomains: Bool = false
    ) {
        self.host = host
        self.port = port
        self.connectTo = connectTo
        self.anchorFiles = anchorFiles
        self.anchorClass = anchorClass
        self.keepsSystemAnchors = keepsSystemAnchors
        self.policy = policy
        self.pins = pins
        self.minimumTLSVersion = minimumTLSVersion
        self.maximumTLSVersion = maximumTLSVersion
        self.time = time
        self.chainFiles = chainFiles
        self.path = path
        self.presented = presented
        self.includesSubdomains = includesSubdomains
    }

    /// Export settings for `settings`, the one value the command line and the explorer hold
    /// (D380): anchors, target and the evaluated path are the caller's to add.
    /// - Parameters:
    ///   - settings: The settings.
    ///   - targetHost: The server target's host, empty for files: the policy's default host.
    ///   - path: How a file the settings name is written (absolutely, for the explorer).
    public init(_ settings: CheckSettings, targetHost: String, path: (String) -> String = { $0 }) {
        self.init(
            anchorClass: settings.anchorClass, policy: settings.trustPolicy(targetHost: targetHost),
            pins: settings.pins, minimumTLSVersion: settings.tlsMinimum,
            maximumTLSVersion: settings.tlsMaximum == .tls1_3 ? nil : settings.tlsMaximum, time: settings.time)
        // Every setting evaluated with goes into the export, so one the format cannot express is
        // named in it as a comment rather than dropped.
        profile = settings.profile
        fetchesAIA = settings.fetchAIA
        if settings.ats.enabled { ats = settings.ats.source.map { .infoPlist(path($0)) } ?? .defaults }
        revocationLists = settings.crls.paths.map(path)
        fetchesRevocation = settings.fetchRevocation
        requiresRevocation = settings.requireRevocation
        evaluatesAsSafari = settings.client == .safari
        if case .path(let p) = settings.store { systemStore = .path(path(p)) } else { systemStore = settings.store }
    }

    /// Every custom anchor, in file order.
    public var anchors: [Certificate] { anchorFiles.flatMap(\.certificates) }

    /// Whether the app itself sets the anchors (SecTrustSetAnchorCertificates in its delegate).
    public var appSetsAnchors: Bool { !anchors.isEmpty && anchorClass == .app }

    /// The host the exported configuration names: the policy's host, else the target's.
    public var pinnedHost: String? { policy.host ?? host }

    /// Where each pin was found on the built path.
    public var classifiedPins: [ClassifiedPin] { ClassifiedPin.classify(pins, path: path) }
}

/// Where the ATS configuration of an evaluation came from.
public enum ATSSource: Hashable, Sendable {
    /// ATS's defaults, with no Info.plist (`--ats`).
    case defaults
    /// An Info.plist (`--ats-plist FILE`).
    case infoPlist(String)
}

/// The four exports, for the audit of what each can express.
public enum ExportFormat: String, Hashable, Sendable, CaseIterable {
    /// A URLSessionDelegate in Swift.
    case swift
    /// An NSPinnedDomains entry.
    case plist
    /// A curl command.
    case curl
    /// openssl commands.
    case openssl
}

extension ExportSettings {
    /// Every setting `format` cannot express, one sentence each, for the export to carry as a
    /// comment: an export that silently drops a setting answers differently from `trustx check`
    /// (curl exits 0 for a chain that is expired at `--at`). One table for the four exports, so
    /// that a setting added to the settings is weighed for all of them at once (docs/export.md).
    /// - Parameter format: The export.
    /// - Returns: The sentences, in the order of the options; empty when everything is expressed.
    public func unexpressed(in format: ExportFormat) -> [String] {
        var out: [String] = []
        let tool: String
        switch format {
        case .swift: tool = "the delegate"
        case .plist: tool = "NSPinnedDomains"
        case .curl: tool = "curl"
        case .openssl: tool = "openssl"
        }
        if let c = connectTo, format == .swift || format == .plist {
            out.append(
                "--connect-to \(c.host):\(c.port): the app connects to the name's own address; \(tool) cannot send it elsewhere."
            )
        }
        if format == .plist && !anchors.isEmpty && anchorClass == .app {
            out.append(
                "--anchor: NSPinnedDomains cannot add anchors; the app must set them (SecTrustSetAnchorCertificates in a delegate, or trustx export swift)."
            )
        }
        if format == .plist && pinnedHost != nil {
            switch policy {
            case .ssl(let h?) where host == nil || h.lowercased() == host?.lowercased(): break
            default:
                out.append(
                    "--policy \(policy.appleName): ATS always evaluates SecPolicyCreateSSL with the URL's host.")
            }
        }
        if format == .plist || format == .openssl {
            if minimumTLSVersion != .tls1_2 {
                out.append(
                    "--tls-min \(minimumTLSVersion.description.dropFirst(4)): \(tool) does not set the lowest TLS version here."
                )
            }
            if let max = maximumTLSVersion {
                out.append(
                    "--tls-max \(max.description.dropFirst(4)): \(tool) does not set the highest TLS version here.")
            }
        }
        if let time, format != .swift && format != .openssl {
            out.append(
                "--at \(time.rfc3339): \(tool) evaluates at the current time, so an answer that depends on the time (an expired or not yet valid certificate) can differ from trustx check's."
            )
        }
        if includesSubdomains && format != .plist {
            out.append("--include-subdomains: \(tool) checks only \(host ?? "the host") itself.")
        }
        if profile != .apple {
            let rules =
                format == .curl || format == .openssl ? "OpenSSL's rules" : "Apple's rules (SecTrust)"
            out.append(
                "--profile \(profile.rawValue): \(tool) applies \(rules), not RFC 5280 with the CA/Browser Forum rules."
            )
        }
        if evaluatesAsSafari {
            // No export makes its code an Apple program: an app's evaluation never applies early expiry.
            let who =
                format == .curl || format == .openssl
                ? "\(tool) is not Apple's" : "an app is not one of Apple's own programs"
            out.append(
                "--client safari: \(who), so no root expires 60 days early as trustd does for Safari (an Apple-internal rule in Security-61901)."
            )
        }
        if format != .openssl {
            if let serverName {
                out.append("--sni \(serverName): \(tool) sends the URL's host as the server name.")
            } else if sendsNoServerName {
                out.append("--no-sni: \(tool) always sends the URL's host as the server name.")
            }
            if let startTLS {
                out.append(
                    "--starttls \(startTLS): \(tool) speaks TLS at once; the server expects \(startTLS.uppercased()) STARTTLS first."
                )
            }
        }
        if let proxy, format != .curl {
            out.append(
                "--proxy \(proxy): \(tool) does not go through it"
                    + (format == .swift || format == .plist ? " (the app uses the system's proxy settings)." : "."))
        }
        if let clientCertificate {
            out.append(
                "--client-cert \(clientCertificate): \(tool) presents no client certificate; add it"
                    + (format == .swift ? " (answer NSURLAuthenticationMethodClientCertificate challenges)." : "."))
        }
        if !fetchesAIA && (format == .swift || format == .plist) {
            out.append("--no-aia: Apple fetches missing intermediates from AIA URLs; the app cannot turn that off.")
        }
        if let ats {
            if case .infoPlist(let path) = ats, format == .plist {
                out.append("--ats-plist \(path): only NSPinnedDomains is written; the file's other ATS keys are not.")
            } else if format != .plist {
                let from: String
                if case .infoPlist(let path) = ats { from = "--ats-plist \(path)" } else { from = "--ats" }
                out.append(
                    "\(from): App Transport Security comes from the app's Info.plist"
                        + (format == .swift ? ", not from the delegate." : "; \(tool) does not apply its rules."))
            }
        }
        if !revocationLists.isEmpty {
            out.append("--crl \(revocationLists.joined(separator: " ")): \(tool) does not check these CRLs.")
        }
        if fetchesRevocation {
            out.append("--revocation: \(tool) does not fetch OCSP responses or CRLs here.")
        }
        if requiresRevocation && format != .swift {
            out.append("--require-revocation: \(tool) does not require a revocation answer here.")
        }
        if keepsSystemAnchors, let store = storeSentence(format) { out.append(store) }
        return out
    }

    /// What the export cannot say about the system roots: curl and openssl trust this machine's
    /// store, an app Apple's. With Apple's store (the default) that is said only when this chain's
    /// root is in one of the two stores only, so the comment is news, not boilerplate.
    private func storeSentence(_ format: ExportFormat) -> String? {
        switch (format, systemStore) {
        case (.curl, .apple), (.openssl, .apple):
            guard let root = rootInOneStoreOnly else { return nil }
            let tool = format == .curl ? "curl" : "openssl"
            return
                "--store apple: \(tool) trusts this machine's roots, not Apple's, and this chain's root \(root.displayName) is in only one of them (trustx store diff lists such roots)."
        case (.curl, .path(let path)), (.openssl, .path(let path)):
            let tool = format == .curl ? "curl" : "openssl"
            return "--store \(path): \(tool) trusts this machine's roots, not these."
        case (.swift, .openssl), (.plist, .openssl):
            return "--store openssl: the device trusts Apple's roots, not this machine's."
        case (.swift, .path(let path)), (.plist, .path(let path)):
            return "--store \(path): the device trusts Apple's roots, not these."
        default:
            return nil
        }
    }
}

/// A pin and the certificate of the built path whose key it matches.
public struct ClassifiedPin: Hashable, Sendable {
    /// Which part of the path a pin belongs to, as NSPinnedDomains divides identities.
    public enum Role: Hashable, Sendable {
        /// The leaf's key: NSPinnedLeafIdentities.
        case leaf
        /// The key of an intermediate or the anchor (index 1 and up of the built path):
        /// NSPinnedCAIdentities.
        case ca(index: Int)
        /// No certificate of the built path has this key (or the chain was not evaluated).
        case unmatched
    }

    /// The SHA-256 digest of the DER SubjectPublicKeyInfo.
    public var digest: [UInt8]
    /// Where it matched.
    public var role: Role
    /// The certificate it matched, nil when unmatched.
    public var certificate: Certificate?

    /// The base64 form written in plists and after `sha256//`.
    public var base64: String { Base64.encode(digest) }

    /// Classifies `pins` against `path` (leaf first): the leaf is looked at first, so a key the
    /// leaf shares with its issuer counts as a leaf pin. Repeated pins are kept once.
    public static func classify(_ pins: [[UInt8]], path: [Certificate]) -> [ClassifiedPin] {
        var out: [ClassifiedPin] = []
        for pin in pins where !out.contains(where: { $0.digest == pin }) {
            if let i = path.firstIndex(where: { $0.spkiSHA256 == pin }) {
                out.append(ClassifiedPin(digest: pin, role: i == 0 ? .leaf : .ca(index: i), certificate: path[i]))
            } else {
                out.append(ClassifiedPin(digest: pin, role: .unmatched, certificate: nil))
            }
        }
        return out
    }
}
