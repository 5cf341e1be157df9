import ATSModel
import COpenSSL
import Foundation

@testable import TLSProbe

/// TLSProbe's client (its `ClientContext`, configured from `ProbeOptions`, and its
/// `HandshakeObserver` on the message callback, as `TLSSession` wires them) and an OpenSSL server
/// handing bytes to each other through a BIO pair, in memory: for what a socket adds nothing to,
/// as swift-nio-ssl tests its handshakes. Both sides are stepped in turn on the test's thread.
final class MemoryHandshake {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let clientContext: ClientContext
    let observer: HandshakeObserver
    private let serverContext: OpaquePointer
    private let client: OpaquePointer
    private let server: OpaquePointer

    /// The client with `options` against a server that sends `chain` (a PEM file, leaf first)
    /// with `key`, speaks `minimum`...`maximum` when given, and, with `clientCA` (a PEM file),
    /// requires a client certificate issued by it.
    init(
        options: ProbeOptions, chain: String, key: String, minimum: TLSVersion? = nil, maximum: TLSVersion? = nil,
        clientCA: String? = nil
    ) throws {
        clientContext = try ClientContext(options: options)
        observer = HandshakeObserver(maximumChainLength: options.maximumChainLength)
        guard let serverContext = SSL_CTX_new(TLS_server_method()) else { throw Failure(description: "SSL_CTX_new") }
        self.serverContext = serverContext
        guard SSL_CTX_use_certificate_chain_file(serverContext, chain) == 1,
            SSL_CTX_use_PrivateKey_file(serverContext, key, SSL_FILETYPE_PEM) == 1
        else {
            SSL_CTX_free(serverContext)
            throw Failure(description: "the server cannot use \(chain) and \(key)")
        }
        if let minimum { _ = COpenSSL_SSL_CTX_set_min_proto_version(serverContext, Int32(minimum.rawValue)) }
        if let maximum { _ = COpenSSL_SSL_CTX_set_max_proto_version(serverContext, Int32(maximum.rawValue)) }
        if let clientCA {
            SSL_CTX_set_verify(
                serverContext, COpenSSL_SSL_VERIFY_PEER() | COpenSSL_SSL_VERIFY_FAIL_IF_NO_PEER_CERT(), nil)
            _ = SSL_CTX_load_verify_locations(serverContext, clientCA, nil)
            SSL_CTX_set_client_CA_list(serverContext, SSL_load_client_CA_file(clientCA))
        }
        guard let client = clientContext.makeSSL(), let server = SSL_new(serverContext) else {
            SSL_CTX_free(serverContext)
            throw Failure(description: "SSL_new")
        }
        self.client = client
        self.server = server
        var clientEnd: OpaquePointer?
        var serverEnd: OpaquePointer?
        guard BIO_new_bio_pair(&clientEnd, 0, &serverEnd, 0) == 1 else { throw Failure(description: "BIO pair") }
        // Each SSL owns its end of the pair from here on (freed with it).
        SSL_set_bio(client, clientEnd, clientEnd)
        SSL_set_bio(server, serverEnd, serverEnd)
        SSL_set_connect_state(client)
        SSL_set_accept_state(server)
        SSL_set_msg_callback(client) { writeP, _, contentType, buf, len, _, arg in
            guard let arg, let buf else { return }
            let observer = Unmanaged<HandshakeObserver>.fromOpaque(arg).takeUnretainedValue()
            observer.record(sent: writeP != 0, contentType: contentType, UnsafeRawBufferPointer(start: buf, count: len))
        }
        // Unretained: `observer` is a stored property, alive until after SSL_free in deinit.
        _ = COpenSSL_SSL_set_msg_callback_arg(client, Unmanaged.passUnretained(observer).toOpaque())
    }

    deinit {
        SSL_free(client)
        SSL_free(server)
        SSL_CTX_free(serverContext)
    }

    /// Whether each side completed its handshake.
    struct Outcome {
        var client: Bool
        var server: Bool
    }

    /// Steps the client, then the server, 32 times: a handshake takes a handful of rounds, and a
    /// side that is done or has failed returns at once. Once its handshake is done the client
    /// reads, as the probe does, to receive a TLS 1.3 server's verdict on its certificate, which
    /// comes after the client's Finished.
    func run() -> Outcome {
        var clientDone = false
        var serverDone = false
        var byte: UInt8 = 0
        for _ in 0..<32 {
            if !clientDone {
                clientDone = SSL_do_handshake(client) == 1
            } else {
                _ = SSL_read(client, &byte, 1)
            }
            if !serverDone { serverDone = SSL_do_handshake(server) == 1 }
        }
        ERR_clear_error()
        return Outcome(client: clientDone, server: serverDone)
    }

    /// The version the client negotiated (`SSL_version`), as TLSVersion.
    var clientVersion: TLSVersion? { TLSVersion(rawValue: Int(SSL_version(client))) }
}
