/// What a server sent back to a ClientHello, read from its first bytes alone: the handshake is
/// never continued past this first message.
public enum ServerAnswer: Sendable, Equatable {
    /// A ServerHello (RFC 8446 4.1.3): the server goes on with the offered groups.
    case serverHello(ServerHelloFacts)
    /// A HelloRetryRequest: a ServerHello whose random is RFC 8446 4.1.3's fixed value, asking
    /// for a share of another group.
    case helloRetryRequest(ServerHelloFacts)
    /// An alert (RFC 8446 6): the level and description.
    case alert(level: UInt8, description: UInt8)
    /// Bytes that are not a TLS answer, with why.
    case malformed(String)
}

/// The facts of a ServerHello or HelloRetryRequest.
public struct ServerHelloFacts: Sendable, Equatable {
    /// The version chosen: supported_versions' when present (TLS 1.3), else legacy_version.
    public var version: UInt16
    /// The cipher suite chosen.
    public var cipherSuite: UInt16
    /// The group of the server's key share (ServerHello) or the group asked for
    /// (HelloRetryRequest); nil when there is no key_share (TLS 1.2 chooses its group later, in
    /// ServerKeyExchange, which is not read).
    public var group: UInt16?
    /// The length of the server's key_exchange (ServerHello under TLS 1.3).
    public var keyShareBytes: Int?

    /// Creates the facts.
    public init(version: UInt16, cipherSuite: UInt16, group: UInt16?, keyShareBytes: Int? = nil) {
        self.version = version
        self.cipherSuite = cipherSuite
        self.group = group
        self.keyShareBytes = keyShareBytes
    }
}

/// Reads a server's answer from the bytes received so far, within a byte budget.
public enum ServerAnswerReader {
    /// The most bytes read before deciding: a ServerHello with X25519MLKEM768's 1,120-byte share
    /// fits in well under 2 KB; anything still undecided after 16 KiB is no sane answer.
    public static let byteBudget = 16_384
    /// RFC 8446 5.1: a record's length must not exceed 2^14 (5.2 allows 256 more when protected).
    static let maximumRecordLength = 16_384 + 256
    /// RFC 8446 4.1.3: the random of a HelloRetryRequest, SHA-256 of "HelloRetryRequest".
    public static let helloRetryRequestRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    /// The answer in `received`, or nil while more bytes could complete it (never nil once
    /// `received` holds `budget` bytes or more).
    /// - Parameters:
    ///   - received: Every byte received so far.
    ///   - budget: The most bytes to read.
    /// - Returns: The answer, or nil to read on.
    public static func answer(in received: [UInt8], budget: Int = byteBudget) -> ServerAnswer? {
        var handshake: [UInt8] = []
        var offset = 0
        // Each pass consumes a whole record of at least five bytes: bounded by the input.
        while offset < received.count {
            let rest = received.count - offset
            // Before its ServerHello a server sends handshake records or an alert, nothing else.
            let type = received[offset]
            guard type == 0x15 || type == 0x16 else { return .malformed(notTLS(received, at: offset)) }
            guard rest >= 5 else { break }
            guard received[offset + 1] == 3 else { return .malformed(notTLS(received, at: offset)) }
            let length = Int(received[offset + 3]) << 8 | Int(received[offset + 4])
            guard length <= maximumRecordLength else {
                return .malformed("a record of \(length) bytes, past TLS's limit of \(maximumRecordLength)")
            }
            guard length > 0 else { return .malformed("an empty record (RFC 8446 5.1 forbids them)") }
            guard rest >= 5 + length else { break }
            let payload = Array(received[(offset + 5)..<(offset + 5 + length)])
            offset += 5 + length
            if type == 0x15 {
                guard handshake.isEmpty, payload.count == 2 else {
                    return .malformed("an alert record of \(payload.count) bytes, not 2")
                }
                return .alert(level: payload[0], description: payload[1])
            }
            handshake += payload
            if handshake.count >= 4 {
                guard handshake[0] == 2 else {
                    return .malformed("a handshake message of type \(handshake[0]) where a ServerHello (2) belongs")
                }
                let messageLength = Int(handshake[1]) << 16 | Int(handshake[2]) << 8 | Int(handshake[3])
                guard messageLength <= budget else {
                    return .malformed("a ServerHello of \(messageLength) bytes, past the \(budget)-byte budget")
                }
                if handshake.count >= 4 + messageLength {
                    return serverHello(Array(handshake[4..<(4 + messageLength)]))
                }
            }
        }
        if received.count >= budget {
            return .malformed("no complete answer in the first \(budget) bytes")
        }
        return nil
    }

    /// RFC 8446 4.1.3's ServerHello: legacy_version, random, legacy_session_id_echo,
    /// cipher_suite, legacy_compression_method, extensions (absent before TLS 1.2's extensions).
    static func serverHello(_ body: [UInt8]) -> ServerAnswer {
        var r = AnswerBytes(body)
        guard let legacy = r.u16(), let random = r.take(32), let sessionLength = r.u8(),
            sessionLength <= 32, r.take(Int(sessionLength)) != nil, let suite = r.u16(), r.u8() != nil
        else { return .malformed("a truncated ServerHello") }
        let retry = random == helloRetryRequestRandom
        var facts = ServerHelloFacts(version: legacy, cipherSuite: suite, group: nil)
        if r.isEmpty { return retry ? .malformed("a HelloRetryRequest without extensions") : .serverHello(facts) }
        guard let total = r.u16(), let extensions = r.take(Int(total)), r.isEmpty else {
            return .malformed("a ServerHello whose extensions overrun it")
        }
        var e = AnswerBytes(extensions)
        // Each extension takes at least four bytes: bounded by the block.
        while !e.isEmpty {
            guard let type = e.u16(), let length = e.u16(), let data = e.take(Int(length)) else {
                return .malformed("a ServerHello extension that overruns its block")
            }
            var d = AnswerBytes(data)
            switch type {
            case 0x002B:  // supported_versions: the selected version (RFC 8446 4.2.1)
                guard let v = d.u16(), d.isEmpty else { return .malformed("a malformed supported_versions") }
                facts.version = v
            case 0x0033:  // key_share: selected_group (HRR) or one KeyShareEntry (RFC 8446 4.2.8)
                guard let group = d.u16() else { return .malformed("a malformed key_share") }
                facts.group = group
                if !retry {
                    guard let n = d.u16(), d.take(Int(n)) != nil, d.isEmpty else {
                        return .malformed("a malformed key_share entry")
                    }
                    facts.keyShareBytes = Int(n)
                }
            default: break
            }
        }
        return retry ? .helloRetryRequest(facts) : .serverHello(facts)
    }

    /// Why bytes at `offset` are not a TLS record, quoting their start as printable text.
    static func notTLS(_ bytes: [UInt8], at offset: Int) -> String {
        let head = bytes[offset...].prefix(16)
        let text = String(decoding: head.map { (0x20..<0x7F).contains($0) ? $0 : UInt8(ascii: ".") }, as: UTF8.self)
        let hex = head.prefix(5).map {
            String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16)
        }
        return "not TLS: the answer starts \(hex.joined(separator: " ")) (\"\(text)\")"
    }
}

/// A bounded reader over a byte array: every read checks what is left.
struct AnswerBytes {
    private let bytes: [UInt8]
    private var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isEmpty: Bool { index >= bytes.count }

    mutating func u8() -> UInt8? { take(1).map { $0[0] } }

    mutating func u16() -> UInt16? { take(2).map { UInt16($0[0]) << 8 | UInt16($0[1]) } }

    mutating func take(_ n: Int) -> [UInt8]? {
        guard n >= 0, bytes.count - index >= n else { return nil }
        defer { index += n }
        return Array(bytes[index..<(index + n)])
    }
}
