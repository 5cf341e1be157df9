import ATSModel
import TrustCore
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

    /// Every custom anchor, in file order.
    public var anchors: [Certificate] { anchorFiles.flatMap(\.certificates) }

    /// Whether the app itself sets the anchors (SecTrustSetAnchorCertificates in its delegate).
    public var appSetsAnchors: Bool { !anchors.isEmpty && anchorClass == .app }

    /// The host the exported configuration names: the policy's host, else the target's.
    public var pinnedHost: String? { policy.host ?? host }

    /// Where each pin was found on the built path.
    public var classifiedPins: [ClassifiedPin] { ClassifiedPin.classify(pins, path: path) }
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
