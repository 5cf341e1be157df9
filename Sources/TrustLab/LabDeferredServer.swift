import LabServers
import TrustBuilder
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One scenario's server whose certificate needs a slow key (`LabSlowKeys`): its port is bound
/// with the others at start-up, and the key is made when the first client connects. That client
/// waits in the listen queue meanwhile and is served when the server starts, if it is still there.
final class LabDeferredServer: Sendable {
    private enum State {
        case waiting(LabListener)
        case running(LabServer)
        case stopped
    }

    private let state: LabLock<State>

    /// How often, in milliseconds, the watching thread wakes to see whether the server was stopped
    /// before any client came (a client wakes it at once).
    static let defaultWakeInterval: Int32 = 200

    /// Starts watching `listener` for a first client; `make` then builds the endpoint (the slow
    /// part) and a small server takes over the listener.
    ///
    /// - Parameter wakeInterval: milliseconds between the watcher's looks at a stop with no client;
    ///   the lab uses the default, and tests a shorter one so that waiting out a few wake-ups
    ///   stays short.
    init(
        listener: LabListener, options: LabServerOptions, wakeInterval: Int32 = defaultWakeInterval,
        make: @escaping @Sendable () throws -> LabEndpoint
    ) throws(LabError) {
        let state = LabLock<State>(.waiting(listener))
        self.state = state
        let fd = listener.fd
        do {
            // Detached: stop() never waits for a key being made; the thread finds the server
            // stopped and leaves.
            _ = try POSIXThread(detached: true) {
                while true {
                    let waiting = state.withLock { s -> Bool in
                        if case .waiting = s { return true }
                        return false
                    }
                    guard waiting else { return }
                    var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                    if poll(&p, 1, wakeInterval) > 0 && p.revents & Int16(POLLIN) != 0 { break }
                }
                let endpoint = try? make()
                state.withLock { s in
                    guard case .waiting(let listener) = s else { return }
                    var small = options
                    small.workers = 2
                    if let endpoint, let server = try? LabServer(bound: [(listener, endpoint)], options: small) {
                        s = .running(server)
                    } else {
                        listener.close()
                        s = .stopped
                    }
                }
            }
        } catch {
            throw .system(operation: "pthread_create", errno: error.errno)
        }
    }

    /// Closes the port, or stops the server that took it over. Idempotent.
    func stop() {
        let previous = state.withLock { s -> State in
            let old = s
            s = .stopped
            return old
        }
        switch previous {
        case .waiting(let listener): listener.close()
        case .running(let server): server.stop()
        case .stopped: break
        }
    }
}

extension Lab {
    /// A scenario whose chain and TLS settings `make` builds for its first client: its entry (the
    /// chain file is written then, and `served` stays empty) and the server waiting on its port.
    static func deferredScenario(
        _ scenario: LabScenario, listener: LabListener,
        make: @escaping @Sendable () throws(BuilderError) -> (LabServedChain, LabTLSConfiguration), urlHost: String,
        directory: LabDirectory, anchorPath: String, options: LabOptions
    ) throws(LabError) -> (RunningScenario, LabDeferredServer) {
        var entry = RunningScenario(
            scenario: scenario, url: "https://\(scenario.host):\(listener.port)/", port: listener.port,
            host: scenario.host, anchorPath: anchorPath, chainPath: directory.path + "/\(scenario.name).chain.pem",
            served: [])
        if scenario.needsConnectTo { entry.connectTo = "\(urlHost):\(listener.port)" }
        let name = scenario.name
        let page = "trustx lab: scenario \(name)\n\(scenario.lesson)\n"
        let server = try LabDeferredServer(
            listener: listener,
            options: LabServerOptions(
                listenAddress: options.listenAddress, connectionTimeout: options.connectionTimeout,
                readTimeout: options.readTimeout, connectionsPerPort: options.connectionsPerPort,
                connectionsPerPeer: options.connectionsPerPeer)
        ) {
            let (served, tls) = try make()
            _ = try directory.write("\(name).chain.pem", served.chain.map { PEM.encode($0.der) }.joined())
            return LabEndpoint(name: name, port: listener.port, service: .https(tls, page: page))
        }
        return (entry, server)
    }
}
