import ATSModel
import HelloFront
import LabServers
import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// How to start a lab.
public struct LabOptions: Sendable {
    /// Scenario names to serve; empty serves all.
    public var scenarios: [String]
    /// The address every server binds: 127.0.0.1 unless a classroom needs another.
    public var listenAddress: String
    /// The address learners use in URLs and that the leaves name (SAN iPAddress) besides
    /// 127.0.0.1; nil: the listen address, or 127.0.0.1 when that is a wildcard.
    public var advertisedAddress: String?
    /// Fixed ports: each scenario at base + its `portOffset`, the AIA server at base + 99;
    /// nil lets the kernel choose free ports.
    public var portBase: Int?
    /// Keep the files in this folder (created 0700 if missing) instead of a temporary one.
    public var outputDirectory: String?
    /// The reference time for validity periods; nil: now.
    public var now: Timestamp?
    /// Worker threads shared by all servers.
    public var workers: Int
    /// Seconds a connection may take before it is cut off.
    public var connectionTimeout: Double
    /// Seconds a client has for each message it owes (its ClientHello, its request after the
    /// handshake, each SMTP command) before it is let go; `LabServerOptions.readTimeout`.
    public var readTimeout: Double
    /// Connections each port keeps open; `LabServerOptions.connectionsPerPort`.
    public var connectionsPerPort: Int
    /// Connections each source address keeps open on a port; `LabServerOptions.connectionsPerPeer`.
    public var connectionsPerPeer: Int
    /// Group ids (`LabScenarioGroup.id`) whose scenarios are served besides `scenarios`; both
    /// empty serves all.
    public var groups: [String] = []
    /// Seconds the rotating scenario serves each of its leaves (at least 1).
    public var rotateSeconds: Int = LabScenario.defaultRotateSeconds

    /// Creates options: every scenario on 127.0.0.1, kernel-chosen ports, a temporary folder.
    public init(
        scenarios: [String] = [], listenAddress: String = "127.0.0.1", advertisedAddress: String? = nil,
        portBase: Int? = nil, outputDirectory: String? = nil, now: Timestamp? = nil, workers: Int = 32,
        connectionTimeout: Double = 10, readTimeout: Double = 2, connectionsPerPort: Int = 1024,
        connectionsPerPeer: Int = 256
    ) {
        self.scenarios = scenarios
        self.listenAddress = listenAddress
        self.advertisedAddress = advertisedAddress
        self.portBase = portBase
        self.outputDirectory = outputDirectory
        self.now = now
        self.workers = workers
        self.connectionTimeout = connectionTimeout
        self.readTimeout = readTimeout
        self.connectionsPerPort = connectionsPerPort
        self.connectionsPerPeer = connectionsPerPeer
    }

    /// Whether the listen address accepts connections from other machines (not loopback),
    /// which the command line warns about.
    public var listensBeyondLoopback: Bool {
        !(listenAddress == "::1" || listenAddress.hasPrefix("127."))
    }
}

/// An anchor file the lab wrote.
public struct LabAnchorFile: Sendable {
    /// Which anchor.
    public var anchor: LabAnchor
    /// Its path (PEM).
    public var path: String
    /// Its PEM text.
    public var pem: String
    /// The certificate.
    public var certificate: Certificate
}

/// The learner's client identity for mtls-required.
public struct LabClientIdentity: Sendable {
    /// The PKCS#12 file (certificate and key).
    public var pkcs12Path: String
    /// Its password.
    public var password: String
    /// The certificate alone (PEM).
    public var certificatePath: String
    /// The private key alone (PKCS#8 PEM, unencrypted, mode 0600).
    public var privateKeyPath: String
    /// The CA the server requires client certificates from (PEM).
    public var caPath: String
}

/// One scenario being served.
public struct RunningScenario: Sendable {
    /// The catalogue entry.
    public var scenario: LabScenario
    /// `https://127.0.0.1:PORT/` (or `smtp://…` for smtp-starttls).
    public var url: String
    /// The bound port.
    public var port: UInt16
    /// The host a client checks: `127.0.0.1`, `localhost`, or the classroom address (IPv6
    /// without brackets).
    public var host: String
    /// The anchor file to pass with `--anchor`.
    public var anchorPath: String
    /// The served chain as PEM, leaf first, in the order sent.
    public var chainPath: String
    /// The served chain, leaf first, in the order sent.
    public var served: [Certificate]
    /// `ADDRESS:PORT` to dial when the URL's host is a name that does not resolve (the ATS
    /// lessons: `--connect-to`); nil otherwise.
    public var connectTo: String?
    /// The lesson's ATS configurations, each written as an Info.plist in the lab folder.
    public var atsCases: [RunningATSCase] = []
    /// A pool's nodes, each with its address and chain (empty: one server); `connectTo` then
    /// lists every node's `ADDRESS:PORT`, comma-separated.
    public var nodes: [RunningNode] = []
    /// The leaves a rotating scenario takes turns with; nil for the others.
    public var rotation: RunningRotation?

    /// The URL, and `--connect-to ADDRESS:PORT` when the name must be redirected: the start of
    /// every `trustx check` (or `trustx ats`) command for this scenario.
    public var targetArguments: [String] { [url] + (connectTo.map { ["--connect-to", $0] } ?? []) }

    /// The scenario's name.
    public var name: String { scenario.name }
    /// What a client concludes under the default settings.
    public var expectation: LabExpectation { scenario.expectation }
    /// The lesson in one line.
    public var lesson: String { scenario.lesson }
}

/// One ATS configuration of a running scenario, written as an Info.plist.
public struct RunningATSCase: Sendable {
    /// The catalogue entry.
    public var atsCase: LabATSCase
    /// The NSAppTransportSecurity dictionary, keyed by the scenario's host.
    public var configuration: ATSConfiguration
    /// The Info.plist holding it (`NAME.LABEL.plist` in the lab folder).
    public var plistPath: String
}

/// A running lab: every selected scenario's server, the AIA server, and the files learners need.
/// Call `stop()` to close every port and remove the files (unless an output folder was given).
public final class Lab: Sendable {
    /// The scenarios being served, in catalogue order.
    public let scenarios: [RunningScenario]
    /// Every anchor file, in `LabAnchor.allCases` order.
    public let anchors: [LabAnchorFile]
    /// The learner's client identity (for mtls-required).
    public let clientIdentity: LabClientIdentity
    /// SPKI SHA-256 pins used by the lessons, `sha256//BASE64`.
    public let pins: [LabPin: String]
    /// The folder holding the files.
    public let directory: String
    /// Whether the folder stays after `stop()`.
    public let keepsFiles: Bool
    /// The selected scenarios this machine's OpenSSL cannot serve, each with its reason
    /// (`LabScenario.unavailable`): listed, never bound.
    public let unavailable: [LabScenario]
    /// The AIA caIssuers URL missing-intermediate-aia's leaf names (nil when that scenario is not served).
    public let aiaURL: String?
    /// The intermediate the AIA URL serves.
    public let aiaIntermediate: Certificate

    private let server: LabServer
    /// Servers that make their certificate for their first client (the RSA cases, 10000-sans).
    private let deferred: [LabDeferredServer]
    /// The middleboxes before some scenarios' servers (`LabScenario.front`).
    private let fronts: [HelloFront]
    private let files: LabDirectory
    private let stopped = LabLock(false)

    /// The learner identity's password: fixed, so handouts can print it.
    public static let clientIdentityPassword = "trustx-lab"

    init(
        scenarios: [RunningScenario], anchors: [LabAnchorFile], clientIdentity: LabClientIdentity,
        pins: [LabPin: String], files: LabDirectory, aiaURL: String?, aiaIntermediate: Certificate, server: LabServer,
        deferred: [LabDeferredServer] = [], fronts: [HelloFront] = [],
        unavailable: [LabScenario]
    ) {
        self.scenarios = scenarios
        self.unavailable = unavailable
        self.anchors = anchors
        self.clientIdentity = clientIdentity
        self.pins = pins
        self.directory = files.path
        self.keepsFiles = files.keep
        self.files = files
        self.aiaURL = aiaURL
        self.aiaIntermediate = aiaIntermediate
        self.server = server
        self.deferred = deferred
        self.fronts = fronts
    }

    /// The running scenario named `name`.
    public func scenario(_ name: String) -> RunningScenario? { scenarios.first { $0.name == name } }

    /// Where the slow RSA key of the served scenario `name` stands (rsa2048, rsa4096, rsa8192: made
    /// in the background from the lab's start); nil for any other scenario.
    public func keyState(of name: String) -> LabKeyState? {
        guard let bits = scenario(name)?.scenario.chain.slowKeyBits else { return nil }
        return LabSlowKeys.state(bits: bits)
    }

    /// The anchor file of `anchor`.
    public func anchor(_ anchor: LabAnchor) -> LabAnchorFile { anchors.first { $0.anchor == anchor }! }

    /// The port of the AIA HTTP server, when missing-intermediate-aia is served.
    public var aiaPort: UInt16? { server.port(of: "aia") }

    /// What the servers have done so far.
    public var statistics: LabServerStatistics { server.statistics }

    /// What variations' arguments name in this lab: its anchor files, pins and learner identity.
    public var argumentValues: LabArgumentValues {
        var values = LabArgumentValues(
            anchorPaths: Dictionary(uniqueKeysWithValues: anchors.map { ($0.anchor, $0.path) }), pins: pins,
            clientIdentityPath: clientIdentity.pkcs12Path, clientIdentityPassword: clientIdentity.password)
        values.ctLogsPath = directory + "/" + CTPKI.logListFileName
        values.dateConstraintsPath = directory + "/" + DistrustPKI.fileName
        return values
    }

    /// The `trustx check` arguments of `variation` for `scenario`, paths and pins filled in
    /// (the URL, `--connect-to` when needed and, when kept, the scenario's `--anchor` included).
    public func arguments(for variation: LabVariation, of scenario: RunningScenario) -> [String] {
        variation.checkArguments(target: scenario.targetArguments, scenarioAnchor: scenario.anchorPath, argumentValues)
    }

    /// The `trustx check` arguments that load `atsCase`'s Info.plist for `scenario`.
    public func arguments(for atsCase: RunningATSCase, of scenario: RunningScenario) -> [String] {
        let device = atsCase.atsCase.anchorClass == .device ? ["--anchor-class", "device"] : []
        return scenario.targetArguments + ["--anchor", scenario.anchorPath] + device + [
            "--ats-plist", atsCase.plistPath,
        ]
    }

    /// Closes every port, cuts off connections, joins the threads and removes the files (unless
    /// kept). Idempotent.
    public func stop() {
        let first = stopped.withLock { done in
            defer { done = true }
            return !done
        }
        guard first else { return }
        for f in fronts { f.stop() }
        server.stop()
        for d in deferred { d.stop() }
        files.remove()
    }

    deinit { stop() }
}
