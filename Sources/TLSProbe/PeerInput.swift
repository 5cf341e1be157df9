import TrustCore

/// The probe's parsers of what servers, responders and proxies send, driven from bytes in memory:
/// the fuzz target (and tests) feed them what a hostile peer could send, through the same code
/// the sockets use. Each returns a short account of what it made of the input; none may trap or
/// run without a bound, whatever the bytes.
package enum PeerInput {
    /// An HTTP reply to an AIA, OCSP or CRL fetch, delivered in pieces of `piece` bytes.
    /// - Returns: `HTTP status, N bytes` or the reason it was refused.
    package static func httpResponse(_ bytes: [UInt8], maximumBody: Int = 64 * 1024, piece: Int = 4096) -> String {
        do {
            let r = try HTTPResponseReader.read(
                from: BufferedStream(ScriptedStream(bytes, piece: piece)), maximumBody: maximumBody)
            return "HTTP \(r.status), \(r.body.count) bytes"
        } catch let e as HTTPReplyError {
            return e.reason
        } catch let e as NetFailure {
            return e.text
        } catch {
            return "\(error)"
        }
    }

    /// A server's side of the `proto` STARTTLS dialogue (`bytes` are all its replies in order).
    /// - Returns: `ready` when the server would now expect a ClientHello, else the message.
    package static func startTLS(_ proto: StartTLSProtocol, replies bytes: [UInt8]) -> String {
        do {
            try Preamble.startTLS(
                proto, on: BufferedStream(ScriptedStream(bytes)), deadline: Deadline(after: .seconds(5)))
            return "ready"
        } catch {
            return error.message
        }
    }

    /// A proxy's answer to CONNECT.
    /// - Returns: `tunnel` when the tunnel would be open, else the message.
    package static func proxyReply(_ bytes: [UInt8]) -> String {
        do {
            let proxy = try ProxyAddress.parse("http://127.0.0.1:3128")
            try Preamble.connectTunnel(
                BufferedStream(ScriptedStream(bytes)), to: Endpoint(host: "example.com", port: 443), proxy: proxy,
                deadline: Deadline(after: .seconds(5)))
            return "tunnel"
        } catch {
            return error.message
        }
    }

    /// Handshake messages as the observer receives them (type, 24-bit length, body), split by
    /// their own lengths; the version the ServerHello chose applies to the Certificate after it.
    /// - Returns: How many certificates the observer counted.
    package static func handshakeMessages(_ bytes: [UInt8], maximumChainLength: Int = 16) -> Int {
        let observer = HandshakeObserver(maximumChainLength: maximumChainLength)
        var offset = 0
        while bytes.count - offset >= 4 {
            let length = Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
            let end = offset + 4 + min(length, bytes.count - offset - 4)
            bytes[offset..<end].withUnsafeBytes { observer.record(sent: false, contentType: 22, $0) }
            offset = end
        }
        return observer.chainCount
    }

    /// A stapled OCSP response as the probe reads its status with OpenSSL.
    /// - Returns: The response status and the certificate status.
    package static func stapledOCSP(_ der: [UInt8]) -> String {
        let staple = OCSPDecoder.decode(der, leaf: nil)
        return "\(staple.responseStatus) \(staple.certificateStatus ?? "-")"
    }

    /// A SignedCertificateTimestampList as a server sends it (TLS extension or OCSP staple).
    /// - Returns: How many SCTs OpenSSL read, nil when it refused the list.
    package static func sctList(_ bytes: [UInt8]) -> Int? { TLSSession.sctCount(inList: bytes) }
}
