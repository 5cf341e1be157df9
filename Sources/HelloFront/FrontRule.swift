import AppleHello

/// What a front does with a connection once it has read the client's first record.
public enum FrontAction: Sendable, Equatable {
    /// Passes the connection to the server behind, the bytes read first.
    case forward
    /// Closes with a TCP reset (SO_LINGER 0), as a middlebox that kills the flow.
    case reset
    /// Reads on and never answers, as a middlebox that drops the packets.
    case silence
    /// Sends these bytes, then closes.
    case answer([UInt8])
}

/// What a middlebox or a buggy server does with a ClientHello: the behaviours that make iOS 26
/// fail where clients with a smaller hello pass (docs/connecting.md, "The second hello").
public struct FrontRule: Sendable {
    /// One line for people.
    public let name: String
    /// The decision, from the first TCP segment's bytes (at most `FrontRule.segmentBytes`) and
    /// the whole first record read as a ClientHello (nil when it is none or never completed).
    public let decide: @Sendable (_ firstSegment: [UInt8], _ hello: ClientHelloSummary?) -> FrontAction

    /// Creates a rule.
    public init(
        name: String, decide: @escaping @Sendable (_ firstSegment: [UInt8], _ hello: ClientHelloSummary?) -> FrontAction
    ) {
        self.name = name
        self.decide = decide
    }

    /// A TCP segment's payload on a 1,500-byte Ethernet path: 1,500 less 20 bytes of IPv4 and 20
    /// of TCP header.
    public static let segmentBytes = 1460

    /// A middlebox that drops a ClientHello record over `limit` bytes, passing smaller ones on.
    /// - Parameters:
    ///   - limit: The largest record passed, header included.
    ///   - action: `.reset` or `.silence`.
    public static func dropsHellos(over limit: Int, by action: FrontAction) -> FrontRule {
        FrontRule(name: "drops ClientHellos over \(limit) bytes") { _, hello in
            guard let hello else { return action }
            return hello.recordBytes > limit ? action : .forward
        }
    }

    /// A middlebox that reads the ClientHello from the first TCP segment only: a hello that does
    /// not fit in one 1,460-byte segment reaches it split, and is dropped. On loopback the bytes
    /// arrive at once, so the front reads the first segment as that many bytes.
    /// - Parameter action: `.reset` or `.silence`.
    public static func dropsSplitHellos(by action: FrontAction) -> FrontRule {
        FrontRule(name: "drops ClientHellos split across TCP segments") { first, _ in
            ClientHelloSummary.read(first) == nil ? action : .forward
        }
    }

    /// A server that reads only the first key share: when its group is not x25519 it answers with
    /// a HelloRetryRequest for x25519, even when an x25519 share came later in the same hello,
    /// which RFC 8446 4.2.8 makes the client reject (illegal_parameter). Clients whose first
    /// share is x25519 (OpenSSL, iOS before 26) reach the server behind.
    public static let retriesX25519UnlessFirst = FrontRule(
        name: "asks for x25519 unless it is the first key share"
    ) { _, hello in
        guard let hello else { return .reset }
        guard hello.firstKeyShareGroup != AppleClientHello.x25519 else { return .forward }
        return .answer(helloRetryRequest(group: AppleClientHello.x25519, sessionID: hello.sessionID))
    }

    /// A HelloRetryRequest record (RFC 8446 4.1.3, 4.1.4): ServerHello's layout with the fixed
    /// random, TLS_AES_128_GCM_SHA256, supported_versions TLS 1.3 and key_share's selected_group.
    public static func helloRetryRequest(group: UInt16, sessionID: [UInt8]) -> [UInt8] {
        let extensions: [UInt8] = [0x00, 0x2B, 0, 2, 3, 4, 0x00, 0x33, 0, 2, UInt8(group >> 8), UInt8(group & 0xFF)]
        var body: [UInt8] = [3, 3] + ServerAnswerReader.helloRetryRequestRandom
        body += [UInt8(sessionID.count)] + sessionID + [0x13, 0x01, 0]
        body += [UInt8(extensions.count >> 8), UInt8(extensions.count & 0xFF)] + extensions
        let message: [UInt8] = [2, 0, UInt8(body.count >> 8), UInt8(body.count & 0xFF)] + body
        return [0x16, 3, 3, UInt8(message.count >> 8), UInt8(message.count & 0xFF)] + message
    }
}
