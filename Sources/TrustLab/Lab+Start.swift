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

/// Where a lab's servers are reached: the address learners use and its form in a URL.
struct LabAddresses: Sendable {
    /// The address learners use and the leaves name besides 127.0.0.1 (IPv6 without brackets).
    var advertised: String
    /// `advertised` as a URL's host (IPv6 in brackets).
    var urlHost: String

    init(_ options: LabOptions) {
        let wildcard = options.listenAddress == "0.0.0.0" || options.listenAddress == "::"
        advertised = options.advertisedAddress ?? (wildcard ? "127.0.0.1" : options.listenAddress)
        urlHost = advertised.contains(":") ? "[\(advertised)]" : advertised
    }

    /// The iPAddress SAN entries of every leaf: 127.0.0.1, and the advertised address.
    var serverIPs: [String] { advertised == "127.0.0.1" ? ["127.0.0.1"] : ["127.0.0.1", advertised] }
}

/// A selected scenario and its listener (a pool's: one per node, the first being `listener`).
struct LabBoundScenario {
    var scenario: LabScenario
    var listener: LabListener
    var nodeListeners: [LabListener] = []
    /// The scenario's front, listening on its port before `listener`'s ephemeral one.
    var front: HelloFront?

    /// The port clients use: the front's when there is one.
    var port: UInt16 { front?.port ?? listener.port }
}

/// Every port a lab binds before it makes its certificates (a leaf's AIA URL names one).
struct LabBindings {
    var scenarios: [LabBoundScenario] = []
    /// Whether a pool's nodes listen on their own loopback addresses.
    var poolLoopback: Bool
    /// The AIA server's listener, when a selected scenario needs it.
    var aia: LabListener?
}

extension Lab {
    /// Builds fresh PKI, writes the files and starts every selected server.
    /// - Throws: `LabError`; nothing is left running or written (except in an output folder) then.
    public static func start(_ options: LabOptions = LabOptions()) throws(LabError) -> Lab {
        let (selected, unavailable) = try select(options)
        let addresses = LabAddresses(options)
        let bindings = try bind(selected, options: options, addresses: addresses)
        let aiaURL = bindings.aia.map { "http://\(addresses.urlHost):\($0.port)/intermediate.der" }
        let parts = try LabParts.build(
            now: options.now ?? Timestamp(secondsSinceEpoch: Int64(time(nil))), serverIPs: addresses.serverIPs,
            aiaURL: aiaURL ?? "http://127.0.0.1/intermediate.der")
        let directory: LabDirectory
        if let path = options.outputDirectory { directory = try .output(path) } else { directory = try .temporary() }
        var deferred: [LabDeferredServer] = []
        do {
            let anchors = try writeAnchors(parts, directory)
            let identity = try writeClientIdentity(parts.lab, directory)
            try directory.write("intermediate.der", parts.lab.aiaIntermediate.der)
            try directory.write(CTPKI.logListFileName, parts.ct.logListJSON)
            try directory.write(DistrustPKI.fileName, parts.distrust.constraintsJSON)
            var running: [RunningScenario] = []
            var endpoints: [(LabListener, LabEndpoint)] = []
            for bound in bindings.scenarios {
                let anchorPath = anchors.first { $0.anchor == bound.scenario.anchor }!.path
                let served = try start(
                    bound, parts: parts, anchorPath: anchorPath, bindings: bindings, addresses: addresses,
                    directory: directory, options: options)
                running.append(served.entry)
                endpoints += served.endpoints
                if let server = served.deferred { deferred.append(server) }
            }
            if let aia = bindings.aia {
                let file = LabHTTPFile(contentType: "application/pkix-cert", body: parts.lab.aiaIntermediate.der)
                endpoints.append(
                    (aia, LabEndpoint(name: "aia", port: aia.port, service: .http(files: ["/intermediate.der": file]))))
            }
            let serverOptions = LabServerOptions(
                listenAddress: options.listenAddress, workers: options.workers,
                connectionTimeout: options.connectionTimeout, readTimeout: options.readTimeout,
                connectionsPerPort: options.connectionsPerPort, connectionsPerPeer: options.connectionsPerPeer)
            let server = try LabServer.labStarted(endpoints, options: serverOptions)
            let lab = Lab(
                scenarios: running, anchors: anchors, clientIdentity: identity,
                pins: parts.pins.mapValues { "sha256//" + Base64.encode($0) }, files: directory,
                aiaURL: aiaURL, aiaIntermediate: parts.lab.aiaIntermediate, server: server, deferred: deferred,
                fronts: bindings.scenarios.compactMap(\.front), unavailable: unavailable)
            // Handouts and scripts read the same description the command line prints.
            try directory.write("lab.json", lab.json())
            return lab
        } catch {
            for d in deferred { d.stop() }
            directory.remove()
            throw error
        }
    }

    /// The scenarios `options` selects, in catalogue order: the ones served and the ones this
    /// machine cannot serve.
    /// - Throws: `.unknownScenario` or `.unknownGroup` for a name the catalogue lacks.
    static func select(_ options: LabOptions) throws(LabError) -> (served: [LabScenario], unavailable: [LabScenario]) {
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
        return (selected.filter { $0.unavailable == nil }, selected.filter { $0.unavailable != nil })
    }

    /// Binds every selected scenario's port (a pool's, one per node), then the AIA server's
    /// when a selected scenario needs it.
    /// - Throws: `.portOutOfRange` for a port base whose highest port would pass 65,535.
    static func bind(
        _ selected: [LabScenario], options: LabOptions, addresses: LabAddresses
    ) throws(LabError) -> LabBindings {
        // The badssl.com cases sit above the AIA server's offset: the highest offset bounds the base.
        let highestOffset = max(LabScenario.aiaPortOffset, selected.flatMap(\.portOffsets).max() ?? 0)
        if let base = options.portBase, base < 0 || base + highestOffset > 65_535 { throw .portOutOfRange(base) }
        func port(_ offset: Int) -> UInt16 { options.portBase.map { UInt16($0 + offset) } ?? 0 }
        var bindings = LabBindings(
            poolLoopback: poolUsesLoopbackAddresses(options, advertised: addresses.advertised))
        for scenario in selected {
            if scenario.nodes.count > 1 {
                let nodes = try bindNodes(scenario, options: options, loopback: bindings.poolLoopback)
                bindings.poolLoopback = nodes.loopback
                bindings.scenarios.append(
                    LabBoundScenario(scenario: scenario, listener: nodes.listeners[0], nodeListeners: nodes.listeners))
                continue
            }
            guard let rule = scenario.front else {
                let listener = try LabListener.labBound(address: options.listenAddress, port: port(scenario.portOffset))
                bindings.scenarios.append(LabBoundScenario(scenario: scenario, listener: listener))
                continue
            }
            // The server on a port of its own; the front takes the scenario's (D434).
            let listener = try LabListener.labBound(address: options.listenAddress, port: 0)
            do throws(HelloFrontError) {
                let front = try HelloFront(
                    rule: rule, address: options.listenAddress, port: port(scenario.portOffset),
                    upstreamPort: listener.port)
                bindings.scenarios.append(LabBoundScenario(scenario: scenario, listener: listener, front: front))
            } catch {
                throw .bind(address: options.listenAddress, port: port(scenario.portOffset), errno: error.errno)
            }
        }
        if selected.contains(where: { $0.extraServers.contains(.aiaIntermediate) }) {
            bindings.aia = try LabListener.labBound(
                address: options.listenAddress, port: port(LabScenario.aiaPortOffset))
        }
        return bindings
    }

    /// Writes every anchor file, in `LabAnchor.allCases` order.
    static func writeAnchors(_ parts: LabParts, _ directory: LabDirectory) throws(LabError) -> [LabAnchorFile] {
        var anchors: [LabAnchorFile] = []
        for anchor in LabAnchor.allCases {
            let certificate = parts.anchors[anchor]!
            let pem = PEM.encode(certificate.der)
            anchors.append(
                LabAnchorFile(
                    anchor: anchor, path: try directory.write(anchor.fileName, pem), pem: pem,
                    certificate: certificate))
        }
        return anchors
    }

    /// Writes the learner's identity: PKCS#12, certificate, key and the CA that issued it.
    static func writeClientIdentity(_ pki: LabPKI, _ directory: LabDirectory) throws(LabError) -> LabClientIdentity {
        let identity = pki.clientIdentity
        let p12: [UInt8]
        do {
            p12 = try identity.key.pkcs12(
                certificate: identity.certificate, password: clientIdentityPassword,
                friendlyName: "Library Test Learner")
        } catch {
            throw .pki(error)
        }
        return LabClientIdentity(
            pkcs12Path: try directory.write("client.p12", p12), password: clientIdentityPassword,
            certificatePath: try directory.write("client-cert.pem", PEM.encode(identity.certificate.der)),
            privateKeyPath: try directory.write("client-key.pem", identity.key.privateKeyPEM()),
            caPath: try directory.write("client-ca.pem", PEM.encode(pki.clientCA.certificate.der)))
    }

    /// Makes `bound`'s chain (or leaves it to the first client, as its recipe says), writes its
    /// files and describes its endpoints (none when its server is deferred).
    static func start(
        _ bound: LabBoundScenario, parts: LabParts, anchorPath: String, bindings: LabBindings,
        addresses: LabAddresses, directory: LabDirectory, options: LabOptions
    ) throws(LabError) -> (
        entry: RunningScenario, endpoints: [(LabListener, LabEndpoint)], deferred: LabDeferredServer?
    ) {
        let scenario = bound.scenario
        let recipe = scenario.chain
        guard recipe.madeAtStart else {
            // Made in the background from now on, not when the first client comes (D310).
            if let bits = recipe.slowKeyBits { LabSlowKeys.prepare(bits: bits) }
            let (entry, server) = try deferredScenario(
                scenario, listener: bound.listener,
                make: { () throws(BuilderError) in
                    let served = try recipe.make(parts, scenario)
                    return (served, tlsConfiguration(scenario, served, parts, options))
                },
                urlHost: addresses.urlHost, directory: directory, anchorPath: anchorPath, options: options)
            return (entry, [], server)
        }
        let served: LabServedChain
        do {
            served = try recipe.make(parts, scenario)
        } catch {
            throw .pki(error)
        }
        let entry = try runningEntry(
            bound, served: served, anchorPath: anchorPath, bindings: bindings, addresses: addresses,
            directory: directory, options: options, pins: parts.pins.mapValues { Base64.encode($0) })
        var page = "trustx lab: scenario \(scenario.name)\n\(scenario.lesson)\n"
        if let first = entry.nodes.first { page = nodePage(scenario, first) }
        let tls = tlsConfiguration(scenario, served, parts, options)
        var service: LabService =
            scenario.serviceProtocol == .smtpStartTLS ? .smtpStartTLS(tls, page: page) : .https(tls, page: page)
        if let legacy = scenario.legacyServer { service = .legacy(legacy, chain: served.chain) }
        let endpoints =
            nodeEndpoints(scenario, nodes: entry.nodes, listeners: bound.nodeListeners, chains: served.nodes) + [
                (bound.listener, LabEndpoint(name: scenario.name, port: bound.listener.port, service: service))
            ]
        return (entry, endpoints, nil)
    }

    /// The description of a scenario whose chain is made: its URL, files, nodes, rotation and
    /// ATS cases.
    static func runningEntry(
        _ bound: LabBoundScenario, served: LabServedChain, anchorPath: String, bindings: LabBindings,
        addresses: LabAddresses, directory: LabDirectory, options: LabOptions, pins: [LabPin: String]
    ) throws(LabError) -> RunningScenario {
        let scenario = bound.scenario
        let port = bound.port
        let onAddress = scenario.host == "127.0.0.1"
        let host = onAddress ? addresses.advertised : scenario.host
        let scheme = scenario.serviceProtocol == .smtpStartTLS ? "smtp" : "https"
        var entry = RunningScenario(
            scenario: scenario, url: "\(scheme)://\(onAddress ? addresses.urlHost : scenario.host):\(port)/",
            port: port, host: host, anchorPath: anchorPath,
            chainPath: try directory.write(
                "\(scenario.name).chain.pem", served.chain.map { PEM.encode($0.der) }.joined()),
            served: served.chain)
        if scenario.needsConnectTo { entry.connectTo = "\(addresses.urlHost):\(port)" }
        if !bound.nodeListeners.isEmpty {
            entry.nodes = try runningNodes(
                scenario, listeners: bound.nodeListeners, chains: served.nodes, loopback: bindings.poolLoopback,
                advertised: addresses.advertised, directory: directory)
            entry.connectTo = entry.nodes.map(\.connectTo).joined(separator: ",")
        }
        if !served.rotation.isEmpty {
            entry.rotation = try runningRotation(
                scenario, chains: served.rotation, period: options.rotateSeconds, directory: directory)
        }
        for atsCase in scenario.atsCases {
            let configuration = atsCase.configuration(host: host, pins: pins)
            entry.atsCases.append(
                RunningATSCase(
                    atsCase: atsCase, configuration: configuration,
                    plistPath: try directory.write(
                        "\(scenario.name).\(atsCase.label).plist", configuration.infoPlistDocument())))
        }
        return entry
    }

    /// How `scenario`'s server speaks TLS: its chain, its staple, its `serverTLS` and its rotation.
    static func tlsConfiguration(
        _ scenario: LabScenario, _ served: LabServedChain, _ parts: LabParts, _ options: LabOptions
    ) -> LabTLSConfiguration {
        var tls = LabTLSConfiguration(chain: served.chain, privateKeyPEM: served.key.privateKeyPEM())
        tls.ocspResponse = served.ocspResponse
        if let settings = scenario.serverTLS {
            settings.apply(to: &tls)
            if let ca = settings.requiredClientCA { tls.requiredClientCAs = [parts.certificate(of: ca)] }
        }
        if !served.rotation.isEmpty {
            tls.rotation = LabLeafRotation(
                leaves: served.rotation.map { ($0.chain, $0.key.privateKeyPEM()) }, period: options.rotateSeconds)
        }
        return tls
    }
}

extension LabParts {
    /// Builds every shared CA, key and leaf of one lab run, which every recipe draws on.
    static func build(
        now: Timestamp, serverIPs: [String], aiaURL: String, keys: LabKeyCache = .shared
    ) throws(LabError) -> LabParts {
        do {
            let lab = try LabPKI.build(now: now, serverIPs: serverIPs, aiaURL: aiaURL, keys: keys)
            return LabParts(
                lab: lab,
                badssl: try BadSSLPKI.build(
                    library: lab.libraryCA, rsaKey: lab.staticRSAKey, now: now, serverIPs: serverIPs),
                inspection: try InspectionPKI.build(now: now, serverIPs: serverIPs),
                ct: try CTPKI.build(now: now, serverIPs: serverIPs),
                fleet: try FleetPKI.build(
                    library: lab.libraryCA, intermediate: lab.libraryIntermediate, now: now, serverIPs: serverIPs),
                distrust: try DistrustPKI.build(now: now, serverIPs: serverIPs),
                expiring: try ExpiringRootPKI.build(now: now, serverIPs: serverIPs))
        } catch {
            throw .pki(error)
        }
    }

    /// Every anchor file's certificate.
    var anchors: [LabAnchor: Certificate] {
        var anchors = lab.anchors.merging(badssl.anchors) { own, _ in own }
        anchors[.inspectionProxyRoot] = inspection.root.certificate
        anchors[.ctLabRoot] = ct.root.certificate
        anchors[.distrustedRoot] = distrust.root.certificate
        anchors[.expiringRoot] = expiring.root.certificate
        return anchors
    }

    /// Every lesson pin, as SPKI SHA-256.
    var pins: [LabPin: [UInt8]] {
        var pins = lab.pins
        pins[.rotatingFirstLeaf] = fleet.rotating[0].chain[0].spkiSHA256
        return pins
    }
}
