import ATSModel
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
    private let files: LabDirectory
    private let stopped = LabLock(false)

    /// The learner identity's password: fixed, so handouts can print it.
    public static let clientIdentityPassword = "trustx-lab"

    private init(
        scenarios: [RunningScenario], anchors: [LabAnchorFile], clientIdentity: LabClientIdentity,
        pins: [LabPin: String], files: LabDirectory, aiaURL: String?, aiaIntermediate: Certificate, server: LabServer,
        deferred: [LabDeferredServer] = [],
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
    }

    /// Builds fresh PKI, writes the files and starts every selected server.
    /// - Throws: `LabError`; nothing is left running or written (except in an output folder) then.
    public static func start(_ options: LabOptions = LabOptions()) throws(LabError) -> Lab {
        var selected: [LabScenario] = []
        for name in options.scenarios {
            guard let scenario = LabScenario.named(name) else { throw .unknownScenario(name) }
            if !selected.contains(scenario) { selected.append(scenario) }
        }
        for id in options.groups {
            guard let group = LabScenario.group(id) else { throw .unknownGroup(id) }
            selected += LabScenario.all.filter { $0.group == group && !selected.contains($0) }
        }
        selected = selected.isEmpty ? LabScenario.all : LabScenario.all.filter { selected.contains($0) }
        let unavailable = selected.filter { $0.unavailable != nil }
        selected.removeAll { $0.unavailable != nil }
        // The badssl.com cases sit above the AIA server's offset: the highest offset bounds the base.
        let highestOffset = max(LabScenario.aiaPortOffset, selected.flatMap(\.portOffsets).max() ?? 0)
        if let base = options.portBase, base < 0 || base + highestOffset > 65_535 {
            throw .portOutOfRange(base)
        }
        func port(_ offset: Int) -> UInt16 { options.portBase.map { UInt16($0 + offset) } ?? 0 }

        let advertised =
            options.advertisedAddress ?? (isWildcard(options.listenAddress) ? "127.0.0.1" : options.listenAddress)
        let urlHost = advertised.contains(":") ? "[\(advertised)]" : advertised

        // Bind first: the AIA URL written into a certificate needs the AIA server's port.
        var bound: [(LabListener, LabScenario)] = []
        // A pool's listeners, one per node (the first also has its place in `bound`).
        var nodeListeners: [String: [LabListener]] = [:]
        var poolLoopback = poolUsesLoopbackAddresses(options, advertised: advertised)
        for scenario in selected {
            if scenario.nodes.count > 1 {
                let nodes = try bindNodes(scenario, options: options, loopback: poolLoopback)
                poolLoopback = nodes.loopback
                bound.append((nodes.listeners[0], scenario))
                nodeListeners[scenario.name] = nodes.listeners
                continue
            }
            bound.append(
                (try LabListener.bind(address: options.listenAddress, port: port(scenario.portOffset)), scenario))
        }
        let servesAIA = selected.contains { $0.name == "missing-intermediate-aia" }
        let aiaListener =
            servesAIA
            ? try LabListener.bind(address: options.listenAddress, port: port(LabScenario.aiaPortOffset)) : nil
        let aiaURL = aiaListener.map { "http://\(urlHost):\($0.port)/intermediate.der" }

        let now = options.now ?? Timestamp(secondsSinceEpoch: Int64(time(nil)))
        var serverIPs = ["127.0.0.1"]
        if advertised != "127.0.0.1" { serverIPs.append(advertised) }
        var pki: LabPKI
        let badssl: BadSSLPKI
        do {
            pki = try LabPKI.build(
                now: now, serverIPs: serverIPs, aiaURL: aiaURL ?? "http://127.0.0.1/intermediate.der")
            badssl = try BadSSLPKI.build(library: pki.libraryCA, now: now, serverIPs: serverIPs)
        } catch {
            throw .pki(error)
        }
        pki.served.merge(badssl.served) { own, _ in own }
        pki.anchors.merge(badssl.anchors) { own, _ in own }
        do {
            let inspection = try InspectionPKI.build(now: now, serverIPs: serverIPs)
            pki.served.merge(inspection.served) { own, _ in own }
            pki.anchors[.inspectionProxyRoot] = inspection.root
        } catch {
            throw .pki(error)
        }
        let ct: CTPKI
        do {
            ct = try CTPKI.build(now: now, serverIPs: serverIPs)
            pki.served.merge(ct.served) { own, _ in own }
            pki.anchors[.ctLabRoot] = ct.root
        } catch {
            throw .pki(error)
        }
        let fleet: FleetPKI
        do {
            fleet = try FleetPKI.build(
                library: pki.libraryCA, intermediate: pki.libraryIntermediate, now: now, serverIPs: serverIPs)
        } catch {
            throw .pki(error)
        }
        pki.served["pool"] = fleet.nodes[0]
        pki.served["rotating"] = fleet.rotating[0]
        pki.pins[.rotatingFirstLeaf] = fleet.rotating[0].chain[0].spkiSHA256

        // badssl.com's TLS servers share one RSA leaf, made only when one of them is served, on
        // the RSA-2048 key of no-forward-secrecy's leaf (always built).
        var badsslWildcard: LabServedChain?
        if bound.contains(where: { pki.served[$0.1.name] == nil }) {
            do {
                let rsa: KeyPair
                if let key = pki.served["no-forward-secrecy"]?.key {
                    rsa = key
                } else {
                    rsa = try .generate(.rsa(bits: 2048))
                }
                badsslWildcard = try LabPKI.badsslWildcard(
                    issuer: pki.libraryCA, key: rsa, now: now, serverIPs: serverIPs)
            } catch {
                throw .pki(error)
            }
        }

        let directory: LabDirectory
        if let path = options.outputDirectory {
            directory = try LabDirectory.output(path)
        } else {
            directory = try LabDirectory.temporary()
        }
        var deferredServers: [LabDeferredServer] = []
        do {
            var anchors: [LabAnchorFile] = []
            for anchor in LabAnchor.allCases {
                let certificate = pki.anchors[anchor]!
                let pem = PEM.encode(certificate.der)
                anchors.append(
                    LabAnchorFile(
                        anchor: anchor, path: try directory.write(anchor.fileName, pem), pem: pem,
                        certificate: certificate))
            }
            let identity = LabClientIdentity(
                pkcs12Path: try directory.write(
                    "client.p12",
                    makePKCS12(
                        certificate: pki.clientIdentity.certificate,
                        privateKeyPEM: pki.clientIdentity.key.privateKeyPEM(), password: clientIdentityPassword,
                        friendlyName: "Library Test Learner")),
                password: clientIdentityPassword,
                certificatePath: try directory.write("client-cert.pem", PEM.encode(pki.clientIdentity.certificate.der)),
                privateKeyPath: try directory.write("client-key.pem", pki.clientIdentity.key.privateKeyPEM()),
                caPath: try directory.write("client-ca.pem", PEM.encode(pki.clientCA.certificate.der)))
            try directory.write("intermediate.der", pki.aiaIntermediate.der)
            try directory.write(CTPKI.logListFileName, ct.logListJSON)

            var bareBase64Pins: [LabPin: String] = [:]
            for (pin, digest) in pki.pins { bareBase64Pins[pin] = Base64.encode(digest) }
            var running: [RunningScenario] = []
            var endpoints: [(LabListener, LabEndpoint)] = []
            for (listener, scenario) in bound {
                if let make = badssl.deferred[scenario.name] {
                    // Made in the background from now on, not when the first client comes (D310).
                    if let bits = BadSSLPKI.slowKeyBits[scenario.name] { LabSlowKeys.prepare(bits: bits) }
                    let (entry, server) = try deferredScenario(
                        scenario, listener: listener, make: make, urlHost: urlHost, directory: directory,
                        anchorPath: anchors.first { $0.anchor == scenario.anchor }!.path, options: options)
                    running.append(entry)
                    deferredServers.append(server)
                    continue
                }
                let served = pki.served[scenario.name] ?? badsslWildcard!
                let host = scenario.host == "127.0.0.1" ? advertised : scenario.host
                let hostInURL = scenario.host == "127.0.0.1" ? urlHost : scenario.host
                let scheme = scenario.serviceProtocol == .smtpStartTLS ? "smtp" : "https"
                let anchorPath = anchors.first { $0.anchor == scenario.anchor }!.path
                var entry = RunningScenario(
                    scenario: scenario, url: "\(scheme)://\(hostInURL):\(listener.port)/", port: listener.port,
                    host: host,
                    anchorPath: anchorPath,
                    chainPath: try directory.write(
                        "\(scenario.name).chain.pem", served.chain.map { PEM.encode($0.der) }.joined()),
                    served: served.chain)
                if scenario.needsConnectTo { entry.connectTo = "\(urlHost):\(listener.port)" }
                let listeners = nodeListeners[scenario.name] ?? []
                if !listeners.isEmpty {
                    entry.nodes = try runningNodes(
                        scenario, listeners: listeners, chains: fleet.nodes, loopback: poolLoopback,
                        advertised: advertised, directory: directory)
                    entry.connectTo = entry.nodes.map(\.connectTo).joined(separator: ",")
                    endpoints += nodeEndpoints(scenario, nodes: entry.nodes, listeners: listeners, chains: fleet.nodes)
                }
                if scenario.rotates {
                    entry.rotation = try runningRotation(
                        scenario, chains: fleet.rotating, period: options.rotateSeconds, directory: directory)
                }
                for atsCase in scenario.atsCases {
                    let configuration = atsCase.configuration(host: host, pins: bareBase64Pins)
                    entry.atsCases.append(
                        RunningATSCase(
                            atsCase: atsCase, configuration: configuration,
                            plistPath: try directory.write(
                                "\(scenario.name).\(atsCase.label).plist", configuration.infoPlistDocument())))
                }
                running.append(entry)
                var tls = LabTLSConfiguration(chain: served.chain, privateKeyPEM: served.key.privateKeyPEM())
                tls.ocspResponse = served.ocspResponse
                switch scenario.name {
                case "tls12-only": tls.maximumVersion = .tls1_2
                case "mtls-required": tls.requiredClientCAs = [pki.clientCA.certificate]
                case "client-cert-missing": tls.requiredClientCAs = [badssl.missingClientCA]
                case "tls11-only":
                    tls.minimumVersion = .tls1_1
                    tls.maximumVersion = .tls1_1
                case "no-forward-secrecy":
                    // RSA key exchange only; TLS 1.3 always has forward secrecy, so it is off.
                    tls.maximumVersion = .tls1_2
                    tls.cipherList = "AES256-GCM-SHA384:AES128-GCM-SHA256:AES256-SHA:AES128-SHA:@SECLEVEL=0"
                default: break
                }
                scenario.serverTLS?.apply(to: &tls)
                if scenario.rotates {
                    tls.rotation = LabLeafRotation(
                        leaves: fleet.rotating.map { ($0.chain, $0.key.privateKeyPEM()) }, period: options.rotateSeconds
                    )
                }
                var page = "trustx lab: scenario \(scenario.name)\n\(scenario.lesson)\n"
                if let first = entry.nodes.first { page = nodePage(scenario, first) }
                var service: LabService =
                    scenario.serviceProtocol == .smtpStartTLS
                    ? .smtpStartTLS(tls, page: page) : .https(tls, page: page)
                if let legacy = scenario.legacyServer { service = .legacy(legacy, chain: served.chain) }
                endpoints.append((listener, LabEndpoint(name: scenario.name, port: listener.port, service: service)))
            }
            if let aiaListener {
                let file = LabHTTPFile(contentType: "application/pkix-cert", body: pki.aiaIntermediate.der)
                endpoints.append(
                    (
                        aiaListener,
                        LabEndpoint(
                            name: "aia", port: aiaListener.port,
                            service: .http(files: ["/intermediate.der": file]))
                    ))
            }
            let server = try LabServer(
                bound: endpoints,
                options: LabServerOptions(
                    listenAddress: options.listenAddress, workers: options.workers,
                    connectionTimeout: options.connectionTimeout, readTimeout: options.readTimeout,
                    connectionsPerPort: options.connectionsPerPort, connectionsPerPeer: options.connectionsPerPeer))
            var pins: [LabPin: String] = [:]
            for (pin, digest) in pki.pins { pins[pin] = "sha256//" + Base64.encode(digest) }
            let lab = Lab(
                scenarios: running, anchors: anchors, clientIdentity: identity, pins: pins, files: directory,
                aiaURL: aiaURL, aiaIntermediate: pki.aiaIntermediate, server: server, deferred: deferredServers,
                unavailable: unavailable)
            // Handouts and scripts read the same description the command line prints.
            try directory.write("lab.json", lab.json())
            return lab
        } catch {
            for d in deferredServers { d.stop() }
            directory.remove()
            throw error
        }
    }

    private static func isWildcard(_ address: String) -> Bool { address == "0.0.0.0" || address == "::" }

    /// The running scenario named `name`.
    public func scenario(_ name: String) -> RunningScenario? { scenarios.first { $0.name == name } }

    /// Where the slow RSA key of the served scenario `name` stands (rsa2048, rsa4096, rsa8192: made
    /// in the background from the lab's start); nil for any other scenario.
    public func keyState(of name: String) -> LabKeyState? {
        guard scenario(name) != nil, let bits = BadSSLPKI.slowKeyBits[name] else { return nil }
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
        server.stop()
        for d in deferred { d.stop() }
        files.remove()
    }

    deinit { stop() }
}
