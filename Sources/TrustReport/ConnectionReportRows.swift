import AppleHello
import TrustCore
import TrustSupport

// The connection's renderings live with the reports; the value itself stays in TrustCore, where
// `Evaluation` holds it.
extension ConnectionReport {
    /// The `target` JSON object.
    func targetJSON() -> JSONValue {
        .object([
            ("host", .string(target.host)),
            ("port", .int(target.port)),
            ("sni", .string(target.sni)),
            ("connectTo", .string(target.connectTo)),
            ("startTLS", .string(target.startTLS)),
            ("proxy", .string(target.proxy)),
        ])
    }

    /// The `connection` JSON object.
    func connectionJSON() -> JSONValue {
        .object([
            ("peerAddress", .string(peerAddress)),
            ("protocol", .string(protocolVersion)),
            ("cipher", .string(cipher)),
            ("group", .string(group)),
            ("alpn", .string(alpn)),
            ("ocsp", .string(ocsp)),
            ("scts", .int(scts)),
            ("clientCertificateRequested", .bool(clientCertificateRequested)),
            ("clientCertificateCANames", .array(clientCertificateCANames.map { .string($0) })),
            (
                "timings",
                .object([
                    ("connectMs", connectMs.map { .tenths($0) } ?? .null),
                    ("handshakeMs", handshakeMs.map { .tenths($0) } ?? .null),
                ])
            ),
            (
                "aia",
                .array(aiaFetches.map { .object([("url", .string($0.url)), ("outcome", .string($0.outcome))]) })
            ),
            ("atsRefusal", .string(atsRefusal)),
            ("appleClientHello", appleClientHello.map(Self.appleHelloJSON) ?? .null),
            (
                "error",
                failure.map {
                    .object([
                        ("kind", .string($0.kind.rawValue)), ("message", .string($0.message)),
                        ("urlError", .int($0.urlError)),
                    ])
                } ?? .null
            ),
        ])
    }

    /// Rows for the text and Markdown reports.
    func rows() -> [(String, String)] {
        var out: [(String, String)] = []
        var where_ = "\(target.host) port \(target.port)"
        if let c = target.connectTo { where_ += " via \(c)" }
        out.append(("target", where_))
        if let p = target.proxy { out.append(("proxy", p)) }
        if let s = target.startTLS { out.append(("starttls", s)) }
        out.append(("sni", target.sni ?? "none"))
        if let peer = peerAddress { out.append(("peer", peer)) }
        if let v = protocolVersion { out.append(("protocol", v)) }
        if let c = cipher { out.append(("cipher", c)) }
        if let g = group { out.append(("group", g)) }
        if let a = alpn { out.append(("alpn", a)) }
        if failure == nil {
            out.append(("ocsp", ocsp ?? "not stapled"))
            out.append(("scts", String(scts)))
            out.append(("client cert", clientCertificateRequested ? "requested" : "not requested"))
        }
        if let c = connectMs, let h = handshakeMs {
            out.append(("timings", "connect \(formatMilliseconds(c)) ms, handshake \(formatMilliseconds(h)) ms"))
        }
        for f in aiaFetches { out.append(("aia", "\(f.url): \(f.outcome)")) }
        if let refusal = atsRefusal { out.append(("ats offer", refusal)) }
        if let hello = appleClientHello { out.append(("apple hello", hello.summary)) }
        if let f = failure {
            out.append(("error", "\(f.message) [\(f.kind)]"))
        }
        return out
    }
}

extension ConnectionReport {
    /// The `connection.appleClientHello` object (docs/json-report.md).
    static func appleHelloJSON(_ h: AppleHelloReport) -> JSONValue {
        .object([
            ("outcome", .string(h.outcome.rawValue)),
            ("helloBytes", .int(h.helloBytes)),
            ("hybridShareBytes", .int(h.hybridShareBytes)),
            ("version", .string(h.version)),
            ("cipherSuite", .string(h.cipherSuite)),
            ("group", .string(h.group)),
            ("serverChoseHybrid", .bool(h.serverChoseHybrid)),
            ("alert", .string(h.alert)),
            ("bytesReceived", .int(h.bytesReceived)),
            ("ms", h.milliseconds.map { .tenths($0) } ?? .null),
            ("reason", .string(h.reason)),
            ("summary", .string(h.summary)),
        ])
    }
}
