/// Connects to a server and records what it presents. Blocking and thread-safe: every call owns
/// its sockets and OpenSSL objects, and returns values; call it from a background thread.
public enum Probe {
    /// Resolves, connects (through a proxy and/or STARTTLS when asked), runs a TLS handshake as an
    /// observer, and returns what was seen, or a `ProbeError` describing the failure as a user
    /// meets it. Ends within `options.timeout`.
    public static func handshake(with target: ProbeTarget, options: ProbeOptions = ProbeOptions()) throws(ProbeError)
        -> Handshake
    {
        _ = ignoreSIGPIPE
        guard options.minimumVersion <= options.maximumVersion else {
            throw ProbeError(
                .invalidOption,
                "the minimum TLS version (\(options.minimumVersion)) is above the maximum (\(options.maximumVersion))")
        }
        guard options.timeout > .zero else { throw ProbeError(.invalidOption, "the timeout must be positive") }
        let deadline = Deadline(after: options.timeout)
        var watch = Stopwatch()
        // Configuration errors (an unreadable client certificate) come before any packet is sent.
        let context = try ClientContext(options: options)
        let proxy = try options.resolvedProxy(for: target.host)
        let dial = proxy?.endpoint ?? target.dialEndpoint
        let what = proxy == nil ? "" : "the proxy "

        let addresses: [SocketAddress]
        do {
            addresses = try Resolver.resolve(dial, deadline: deadline)
        } catch {
            switch error {
            case .notFound(let reason):
                throw ProbeError(.unknownHost, "cannot find \(what)host '\(dial.host)': \(reason)")
            case .timedOut:
                throw ProbeError(
                    .timedOut, "timed out after \(deadline.totalSecondsText) looking up \(what)host '\(dial.host)'")
            }
        }
        let resolveMs = watch.lap()

        let connection: Connection
        do {
            connection = try Connection.connect(to: addresses, deadline: deadline)
        } catch {
            switch error {
            case .refused(let address):
                throw ProbeError(
                    .connectionRefused, "\(what)\(address) refused the connection: nothing listens on that port")
            case .unreachable(let address, let errno):
                throw ProbeError(
                    .cannotConnect, "cannot connect to \(what)\(address): \(NetFailure.system(errno).text)")
            case .timedOut(let address):
                throw ProbeError(
                    .timedOut,
                    "timed out after \(deadline.totalSecondsText) connecting to \(what)\(address.isEmpty ? dial.description : address)"
                )
            }
        }
        let connectMs = watch.lap()
        let peer = connection.peer.text

        func withPeer(_ e: ProbeError) -> ProbeError {
            var e = e
            if e.partial == nil {
                e.partial = PartialHandshake(
                    version: nil, presentedChain: [], clientCertificateRequested: false,
                    acceptableClientCANames: [], clientCertificateSent: false, peerAddress: peer)
            } else {
                e.partial?.peerAddress = peer
            }
            return e
        }

        let stream = BufferedStream(SocketStream(connection, deadline: deadline))
        do {
            if let proxy {
                try Preamble.connectTunnel(stream, to: target.dialEndpoint, proxy: proxy, deadline: deadline)
            }
            if let proto = options.startTLS { try Preamble.startTLS(proto, on: stream, deadline: deadline) }
        } catch {
            throw withPeer(error)
        }
        let preambleMs = watch.lap()

        let session = try TLSSession(context: context, serverName: target.serverName, options: options)
        do {
            try session.handshake(connection, deadline: deadline, readAhead: stream.takeBuffer())
        } catch {
            throw withPeer(error)
        }
        let handshakeMs = watch.lap()

        guard let version = session.version, let cipher = session.cipher else {
            throw withPeer(
                ProbeError(.malformedHandshake, "the handshake ended without a negotiated version and cipher"))
        }
        let observer = session.observer
        let result = Handshake(
            target: target, peerAddress: peer, proxy: proxy, startTLS: options.startTLS, sni: target.serverName,
            presentedChain: session.presentedChain, version: version, cipher: cipher, group: session.group,
            alpn: session.alpn, ocsp: session.ocspStaple, scts: session.scts,
            clientCertificateRequested: observer.certificateRequested, acceptableClientCANames: session.clientCANames(),
            clientCertificateSent: observer.clientCertificateSent,
            timings: Timings(
                resolveMs: resolveMs, connectMs: connectMs, preambleMs: preambleMs, handshakeMs: handshakeMs))
        session.shutdown(connection, deadline: deadline)
        return result
    }
}

extension Probe {
    /// The distinct addresses `host` resolves to, in the resolver's order, as numeric text
    /// (`192.0.2.1`, `2001:db8::1`): one target per address lets the one node of a pool that
    /// serves another chain stand out. At most 64 (a bound on what a resolver may return).
    /// - Parameters:
    ///   - host: A name or an IP literal.
    ///   - timeout: The deadline for the lookup.
    /// - Returns: The addresses.
    /// - Throws: `ProbeError` (unknown host, timed out).
    public static func addresses(of host: String, timeout: Duration) throws(ProbeError) -> [String] {
        let resolved: [SocketAddress]
        do {
            resolved = try Resolver.resolve(Endpoint(host: host, port: 443), deadline: Deadline(after: timeout))
        } catch {
            switch error {
            case .notFound(let reason): throw ProbeError(.unknownHost, "cannot find host '\(host)': \(reason)")
            case .timedOut: throw ProbeError(.timedOut, "timed out looking up host '\(host)'")
            }
        }
        var out: [String] = []
        for address in resolved.prefix(64) {
            var text = address.text
            // `[::1]:443` or `127.0.0.1:443`: keep the host part.
            if let colon = text.lastIndex(of: ":") { text = String(text[..<colon]) }
            if text.hasPrefix("[") && text.hasSuffix("]") { text = String(text.dropFirst().dropLast()) }
            if !out.contains(text) { out.append(text) }
        }
        return out
    }
}
