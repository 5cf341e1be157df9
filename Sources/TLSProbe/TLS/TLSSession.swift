import ATSModel
internal import COpenSSL
import TrustCore
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// One client SSL object over memory BIOs. OpenSSL never touches the socket: this class moves
/// bytes between the socket and the BIOs itself, so every wait is a poll() under the deadline,
/// every received byte is counted against the input bound, and the first bytes are kept to
/// recognise a plaintext server. Freed in deinit; used on one thread.
final class TLSSession {
    private let ssl: OpaquePointer
    /// The memory BIOs, owned by `ssl` (SSL_set_bio) and freed with it.
    private let rbio: OpaquePointer
    private let wbio: OpaquePointer
    let observer: HandshakeObserver
    let options: ProbeOptions
    let serverName: String?
    /// The first bytes the server sent in the TLS phase, for "this is not TLS" messages.
    private(set) var firstBytes: [UInt8] = []
    private(set) var received = 0

    init(context: ClientContext, serverName: String?, options: ProbeOptions) throws(ProbeError) {
        self.options = options
        self.serverName = serverName
        observer = HandshakeObserver(maximumChainLength: options.maximumChainLength)
        let made = (context.makeSSL(), BIO_new(BIO_s_mem()), BIO_new(BIO_s_mem()))
        guard let ssl = made.0, let rbio = made.1, let wbio = made.2 else {
            // Whichever was made is freed again (each free takes NULL).
            SSL_free(made.0)
            BIO_free(made.1)
            BIO_free(made.2)
            throw ProbeError(
                .invalidOption, "OpenSSL could not create a TLS connection", details: OpenSSLError.drain().map(\.text))
        }
        self.ssl = ssl
        self.rbio = rbio
        self.wbio = wbio
        SSL_set_bio(ssl, rbio, wbio)  // the SSL owns both BIOs from here on
        SSL_set_connect_state(ssl)
        if let serverName { _ = COpenSSL_SSL_set_tlsext_host_name(ssl, serverName) }
        if options.requestSCTs {
            // Permissive: ask for SCTs (and accept them via OCSP) without letting CT policy fail
            // the handshake; the evaluator judges them.
            _ = SSL_enable_ct(ssl, Int32(SSL_CT_VALIDATION_PERMISSIVE))
        }
        if options.requestOCSPStaple { _ = COpenSSL_SSL_set_tlsext_status_type(ssl, TLSEXT_STATUSTYPE_ocsp) }
        SSL_set_msg_callback(ssl) { writeP, _, contentType, buf, len, _, arg in
            guard let arg, let buf else { return }
            let observer = Unmanaged<HandshakeObserver>.fromOpaque(arg).takeUnretainedValue()
            observer.record(sent: writeP != 0, contentType: contentType, UnsafeRawBufferPointer(start: buf, count: len))
        }
        // Unretained: `observer` is a stored property, alive until after SSL_free in deinit.
        _ = COpenSSL_SSL_set_msg_callback_arg(ssl, Unmanaged.passUnretained(observer).toOpaque())
    }

    deinit { SSL_free(ssl) }

    // MARK: moving bytes

    /// Sends whatever OpenSSL has written into the write BIO.
    private func flush(_ c: Connection, _ deadline: Deadline) throws(NetFailure) {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16384)
        while BIO_ctrl_pending(wbio) > 0 {
            let n = chunk.withUnsafeMutableBytes { BIO_read(wbio, $0.baseAddress, Int32($0.count)) }
            if n <= 0 { break }
            out += chunk[0..<Int(n)]
        }
        if !out.isEmpty { try c.send(out, deadline: deadline) }
    }

    /// Hands received bytes to OpenSSL, enforcing the input bound.
    private func feed(_ bytes: [UInt8]) throws(ProbeError) {
        guard !bytes.isEmpty else { return }
        received += bytes.count
        if firstBytes.count < 256 { firstBytes += bytes.prefix(256 - firstBytes.count) }
        if received > options.maximumHandshakeBytes {
            throw error(
                .oversizedHandshake,
                "the server sent more than \(options.maximumHandshakeBytes / 1024) KiB without completing the handshake"
            )
        }
        _ = bytes.withUnsafeBytes { BIO_write(rbio, $0.baseAddress, Int32($0.count)) }
    }

    // MARK: the handshake

    /// Runs the handshake to completion or to a classified failure. `readAhead` holds bytes the
    /// plaintext preamble read past its end (they belong to TLS).
    func handshake(_ c: Connection, deadline: Deadline, readAhead: [UInt8]) throws(ProbeError) {
        try feed(readAhead)
        while true {
            ERR_clear_error()
            let rc = SSL_do_handshake(ssl)
            do {
                try flush(c, deadline)
            } catch {
                // The peer went away while we wrote: what it said before leaving explains why.
                throw failure(after: error, deadline: deadline)
            }
            if rc == 1 { break }
            let code = SSL_get_error(ssl, rc)
            guard code == SSL_ERROR_WANT_READ || code == SSL_ERROR_WANT_WRITE else {
                throw classify(OpenSSLError.drain())
            }
            if observer.chainTooLong { throw chainTooLong() }
            do {
                try feed(try c.receive(deadline: deadline))
            } catch let e as NetFailure {
                throw failure(after: e, deadline: deadline)
            } catch let e as ProbeError {
                throw e
            } catch {
                throw self.error(.malformedHandshake, "\(error)")
            }
        }
        if observer.chainTooLong { throw chainTooLong() }
        if observer.serverVersion == .tls1_3 && observer.certificateRequested {
            try awaitClientCertificateVerdict(c, deadline: deadline)
        }
    }

    /// In TLS 1.3 the client finishes before the server has looked at its certificate (RFC 8446
    /// 4.4.2.4): a rejection arrives afterwards as an alert. OpenSSL servers send session tickets
    /// once they accept, so wait for a ticket, an alert or data, at most one second.
    private func awaitClientCertificateVerdict(_ c: Connection, deadline: Deadline) throws(ProbeError) {
        let grace = Deadline(after: min(.seconds(1), deadline.remaining))
        var byte: UInt8 = 0
        while !observer.ticketReceived {
            ERR_clear_error()
            let n = SSL_read(ssl, &byte, 1)
            try? flush(c, deadline)
            if n > 0 { return }
            let code = SSL_get_error(ssl, n)
            if code == SSL_ERROR_ZERO_RETURN { return }
            guard code == SSL_ERROR_WANT_READ else { throw classify(OpenSSLError.drain()) }
            if observer.ticketReceived { return }
            do {
                try feed(try c.receive(deadline: grace))
            } catch NetFailure.closed {
                if !observer.clientCertificateSent {
                    throw error(
                        .clientCertificateRequired,
                        "the server requires a client certificate and none was sent (it closed the connection after the handshake)"
                    )
                }
                throw error(
                    .clientCertificateRejected,
                    "the server closed the connection after receiving the client certificate")
            } catch let e as ProbeError {
                throw e
            } catch {
                return  // quiet within the grace period: the server accepted
            }
        }
    }

    /// Sends close_notify, best effort.
    func shutdown(_ c: Connection, deadline: Deadline) {
        ERR_clear_error()
        _ = SSL_shutdown(ssl)
        try? flush(c, Deadline(after: min(.milliseconds(100), deadline.remaining)))
        ERR_clear_error()
    }

    // MARK: classification

    var allowedVersions: String {
        options.minimumVersion == options.maximumVersion
            ? options.minimumVersion.description
            : "\(options.minimumVersion)-\(options.maximumVersion.description.dropFirst(4))"
    }

    func partial(peer: String?) -> PartialHandshake {
        PartialHandshake(
            version: observer.serverVersion, presentedChain: observer.chain,
            clientCertificateRequested: observer.certificateRequested, acceptableClientCANames: clientCANames(),
            clientCertificateSent: observer.clientCertificateSent, peerAddress: peer)
    }

    private func error(_ kind: ProbeError.Kind, _ message: String, alert: TLSAlert? = nil, details: [OpenSSLError] = [])
        -> ProbeError
    {
        ProbeError(kind, message, alert: alert, details: details.map(\.text), partial: partial(peer: nil))
    }

    private func chainTooLong() -> ProbeError {
        error(
            .chainTooLong,
            "the server sent \(observer.chainCount) certificates; more than \(options.maximumChainLength) is refused as hostile"
        )
    }

    /// Where the handshake stood, for messages.
    private var stage: String {
        guard observer.serverHelloSeen else { return "before answering the ClientHello" }
        switch observer.lastReceived {
        case 11: return "after sending its certificates"
        case 13: return "after asking for a client certificate"
        case 14: return "after its ServerHelloDone"
        case 2: return "after its ServerHello"
        default: return "after its ServerHello"
        }
    }

    private func failure(after e: NetFailure, deadline: Deadline) -> ProbeError {
        if observer.chainTooLong { return chainTooLong() }
        switch e {
        case .timedOut:
            let got = received == 0 ? "no answer to the ClientHello" : "the server sent \(received) bytes"
            return error(.timedOut, "timed out after \(deadline.totalSecondsText) during the TLS handshake (\(got))")
        case .closed, .system, .overlong:
            // An alert just before the close already made OpenSSL fail; here none came.
            if let plain = plaintextError() { return plain }
            if observer.certificateRequested && !observer.clientCertificateSent {
                return error(
                    .clientCertificateRequired,
                    "the server requires a client certificate and none was sent (it closed the connection \(stage))")
            }
            let how = e == .closed ? "closed the connection" : "broke the connection (\(e.text))"
            return error(.closedDuringHandshake, "the server \(how) during the TLS handshake, \(stage)")
        }
    }

    /// A plaintext answer (HTTP, a mail banner) instead of a TLS record.
    private func plaintextError() -> ProbeError? {
        guard !observer.serverHelloSeen, let first = firstBytes.first, !(20...24).contains(first) else { return nil }
        let text = firstBytes.prefix { $0 != 0x0A && $0 != 0x0D }
        let printable = text.allSatisfy { $0 >= 0x20 && $0 < 0x7F }
        guard printable, !text.isEmpty else { return nil }
        let line = Preamble.printable(String(decoding: text, as: UTF8.self))
        if firstBytes.starts(with: Array("HTTP/".utf8)) {
            return error(.notTLS, "the server answered in plain HTTP, not TLS: \"\(line)\" (an http:// port?)")
        }
        var hint = ""
        if line.hasPrefix("220") { hint = " (a mail or FTP port: try STARTTLS smtp or ftp)" }
        if line.hasPrefix("* OK") { hint = " (an IMAP port: try STARTTLS imap)" }
        if line.hasPrefix("+OK") { hint = " (a POP3 port: try STARTTLS pop3)" }
        return error(.notTLS, "the server answered in plain text, not TLS: \"\(line)\"\(hint)")
    }

    /// Which handshake message was over OpenSSL's size for it: the state machine has already
    /// moved to the message whose header announced the size when it refuses it.
    private func oversizedMessage() -> String {
        let state = SSL_get_state(ssl)
        if state == TLS_ST_CR_CERT_STATUS {
            // OpenSSL allows a CertificateStatus at most one record's plaintext, 16 KiB.
            return "the server's certificate status message (its stapled OCSP response) exceeds the 16 KiB "
                + "OpenSSL accepts"
        }
        if state == TLS_ST_CR_CERT || state == TLS_ST_CR_CERT_REQ {
            let what = state == TLS_ST_CR_CERT ? "its certificates" : "its client-certificate request"
            return "the server's handshake message (\(what)) exceeds the "
                + "\(options.maximumCertificateListBytes / 1024) KiB bound"
        }
        return "the server's handshake message \(stage) exceeds the size OpenSSL accepts for it"
    }

    /// Turns a failed handshake into one sentence, from what the observer saw (alerts, the
    /// ServerHello, a certificate request) first and OpenSSL's reasons second.
    func classify(_ errors: [OpenSSLError]) -> ProbeError {
        let reasons = Set(errors.map(\.reason))
        if let alert = observer.alertReceived { return classify(alert: alert, errors) }
        if observer.chainTooLong { return chainTooLong() }
        if let plain = plaintextError() { return plain }
        if reasons.contains(SSL_R_EXCESSIVE_MESSAGE_SIZE) {
            return error(.oversizedHandshake, oversizedMessage(), details: errors)
        }
        if observer.serverHelloSeen,
            observer.serverVersion.map({ $0 < options.minimumVersion || $0 > options.maximumVersion }) ?? true
        {
            let chose =
                observer.serverVersion?.description
                ?? observer.serverWireVersion.map { $0 == 0x0300 ? "SSL 3.0" : "version 0x\(String($0, radix: 16))" }
                ?? "an unknown version"
            return error(
                .noCommonVersion, "the server chose \(chose), but only \(allowedVersions) is allowed", details: errors)
        }
        if reasons.contains(SSL_R_UNSUPPORTED_PROTOCOL) || reasons.contains(SSL_R_NO_PROTOCOLS_AVAILABLE) {
            return error(.noCommonVersion, "no TLS version in common (allowed: \(allowedVersions))", details: errors)
        }
        if reasons.contains(SSL_R_WRONG_CIPHER_RETURNED) || reasons.contains(SSL_R_NO_CIPHERS_AVAILABLE) {
            return error(.noCommonCipher, "no cipher suite in common with the server", details: errors)
        }
        let why = errors.first.map { " (\($0.text))" } ?? ""
        if !observer.serverHelloSeen, let first = firstBytes.first, (20...24).contains(first) {
            return error(
                .malformedHandshake, "the server answered the ClientHello with malformed TLS\(why)", details: errors)
        }
        if !observer.serverHelloSeen {
            let head = firstBytes.prefix(8).map { String(format2: $0) }.joined(separator: " ")
            return error(
                .malformedHandshake, "the server's answer is not TLS (first bytes: \(head))\(why)", details: errors)
        }
        return error(.malformedHandshake, "the server sent data that is not valid TLS \(stage)\(why)", details: errors)
    }

    private func classify(alert: TLSAlert, _ errors: [OpenSSLError]) -> ProbeError {
        let missingCert = observer.certificateRequested && !observer.clientCertificateSent
        switch alert.code {
        case 116:
            return error(
                .clientCertificateRequired,
                "the server requires a client certificate and none was sent (TLS 1.3 alert \(alert))", alert: alert,
                details: errors)
        case 40 where missingCert, 41 where missingCert, 42 where missingCert:
            return error(
                .clientCertificateRequired,
                "the server requires a client certificate and none was sent (alert \(alert): what TLS 1.2 servers say to a client without one)",
                alert: alert, details: errors)
        case let code where observer.clientCertificateSent && alert.isAboutClientCertificate && code != 40:
            return error(
                .clientCertificateRejected, "the server rejected the client certificate (alert \(alert))",
                alert: alert, details: errors)
        case 70:
            return error(
                .noCommonVersion,
                "the server does not accept \(allowedVersions) (alert \(alert))", alert: alert, details: errors)
        case 40 where !observer.serverHelloSeen, 71:
            return error(
                .noCommonCipher,
                "the server found no cipher suite, group or signature algorithm in common (alert \(alert), allowed versions \(allowedVersions))",
                alert: alert, details: errors)
        case 112:
            let name = serverName.map { "'\($0)'" } ?? "the missing server name (no SNI)"
            return error(.tlsAlert, "the server does not serve \(name) (alert \(alert))", alert: alert, details: errors)
        default:
            return error(
                .tlsAlert, "the server ended the handshake with alert \(alert), \(stage)", alert: alert, details: errors
            )
        }
    }

    // MARK: facts

    var version: TLSVersion? { TLSVersion(rawValue: Int(SSL_version(ssl))) }

    var cipher: CipherSuite? {
        guard let c = SSL_get_current_cipher(ssl) else { return nil }
        let openSSL = SSL_CIPHER_get_name(c).map { String(cString: $0) } ?? "?"
        let iana = SSL_CIPHER_standard_name(c).map { String(cString: $0) } ?? openSSL
        return CipherSuite(
            ianaName: iana, openSSLName: openSSL, id: UInt16(truncatingIfNeeded: SSL_CIPHER_get_protocol_id(c)))
    }

    var group: String? {
        let nid = COpenSSL_SSL_get_negotiated_group(ssl)
        if nid > 0, let name = SSL_group_to_name(ssl, nid) { return String(cString: name) }
        // Custom DHE parameters have no group name: show the key type and size instead.
        var key: OpaquePointer?
        guard COpenSSL_SSL_get_peer_tmp_key(ssl, &key) == 1, let key else { return nil }
        defer { EVP_PKEY_free(key) }
        let type = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "key"
        return "\(type) \(EVP_PKEY_get_bits(key))"
    }

    var alpn: String? {
        var p: UnsafePointer<UInt8>?
        var len: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &p, &len)
        guard let p, len > 0 else { return nil }
        return String(decoding: UnsafeBufferPointer(start: p, count: Int(len)), as: UTF8.self)
    }

    /// The chain as sent; OpenSSL's parsed copy only if the message could not be read.
    var presentedChain: [[UInt8]] {
        if !observer.chain.isEmpty { return observer.chain }
        guard let stack = SSL_get_peer_cert_chain(ssl) else { return [] }
        var out: [[UInt8]] = []
        for i in 0..<COpenSSL_sk_X509_num(stack) {
            guard let x = COpenSSL_sk_X509_value(stack, i) else { continue }
            out.append(DERBytes.of(x))
        }
        return out
    }

    /// Most CA names kept from a CertificateRequest: the message may hold thousands of tiny
    /// ones, and each becomes a line of the report.
    static let maximumClientCANames = 100

    func clientCANames() -> [String] {
        guard let names = SSL_get0_peer_CA_list(ssl) else { return [] }
        var out: [String] = []
        let count = Int(COpenSSL_sk_X509_NAME_num(names))
        for i in 0..<Int32(min(count, Self.maximumClientCANames)) {
            guard let name = COpenSSL_sk_X509_NAME_value(names, i), let bio = BIO_new(BIO_s_mem()) else { continue }
            defer { BIO_free(bio) }
            _ = X509_NAME_print_ex(bio, name, 0, COpenSSL_XN_FLAG_RFC2253())
            var p: UnsafeMutablePointer<CChar>?
            let n = COpenSSL_BIO_get_mem_data(bio, &p)
            if let p, n > 0 {
                out.append(InputExcerpt.quote(bytes: UnsafeRawBufferPointer(start: p, count: n)))
            }
        }
        if count > Self.maximumClientCANames { out.append("(and \(count - Self.maximumClientCANames) more)") }
        return out
    }

    var ocspStaple: OCSPStaple? {
        var p: UnsafePointer<UInt8>?
        let n = COpenSSL_SSL_get_tlsext_status_ocsp_resp(ssl, &p)
        guard let p, n > 0 else { return nil }
        let der = [UInt8](UnsafeBufferPointer(start: p, count: n))
        return OCSPDecoder.decode(der, leaf: SSL_get0_peer_certificate(ssl))
    }

    var scts: [TransportSCT] {
        guard let list = SSL_get0_peer_scts(ssl) else { return [] }
        var out: [TransportSCT] = []
        for i in 0..<COpenSSL_sk_SCT_num(list) {
            guard let sct = COpenSSL_sk_SCT_value(list, i) else { continue }
            let source: TransportSCT.Source
            switch SCT_get_source(sct) {
            case SCT_SOURCE_TLS_EXTENSION: source = .tlsExtension
            case SCT_SOURCE_OCSP_STAPLED_RESPONSE: source = .ocspResponse
            default: continue  // embedded SCTs are the certificate's own, decoded by TrustCore
            }
            var id: UnsafeMutablePointer<UInt8>?
            let idLen = SCT_get0_log_id(sct, &id)
            let logID = id.map { [UInt8](UnsafeBufferPointer(start: $0, count: idLen)) } ?? []
            var transport = TransportSCT(
                source: source, version: Int(SCT_get_version(sct).rawValue), logID: logID,
                timestampMilliseconds: SCT_get_timestamp(sct))
            var encoded: UnsafeMutablePointer<UInt8>?
            let length = i2o_SCT(sct, &encoded)
            if length > 0, let encoded {
                transport.encoded = [UInt8](UnsafeBufferPointer(start: encoded, count: Int(length)))
                CRYPTO_free(encoded, nil, 0)
            }
            out.append(transport)
        }
        return out
    }
}

extension TLSSession {
    /// How many SCTs OpenSSL reads from a TLS-encoded SignedCertificateTimestampList (RFC 6962
    /// 3.3), as a server sends it in its TLS extension or OCSP staple; nil when it refuses it.
    static func sctCount(inList bytes: [UInt8]) -> Int? {
        bytes.withUnsafeBufferPointer { buffer -> Int? in
            var p: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let list = o2i_SCT_LIST(nil, &p, buffer.count) else {
                ERR_clear_error()
                return nil
            }
            defer { SCT_LIST_free(list) }
            return Int(COpenSSL_sk_SCT_num(list))
        }
    }
}

enum DERBytes {
    /// The DER of an X509 object (OpenSSL keeps the received encoding, so this is as sent).
    static func of(_ x: OpaquePointer) -> [UInt8] {
        let n = i2d_X509(x, nil)
        guard n > 0 else { return [] }
        var buf = [UInt8](repeating: 0, count: Int(n))
        buf.withUnsafeMutableBufferPointer { b in
            var p: UnsafeMutablePointer<UInt8>? = b.baseAddress
            _ = i2d_X509(x, &p)
        }
        return buf
    }
}

extension String {
    /// Two hex digits.
    init(format2 byte: UInt8) {
        let digits = Array("0123456789abcdef")
        self = String([digits[Int(byte >> 4)], digits[Int(byte & 0xF)]])
    }
}
