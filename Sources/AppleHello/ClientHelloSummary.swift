/// What a front before a server needs of a client's first record: its size and the groups of its
/// key shares in order (RFC 8446 4.1.2, 4.2.8), read within the record's own lengths.
public struct ClientHelloSummary: Sendable, Equatable {
    /// The record's size on the wire, its five-byte header included.
    public var recordBytes: Int
    /// The groups of key_share's entries, in the client's order (GREASE included).
    public var keyShareGroups: [UInt16]
    /// legacy_session_id, which a server's answer echoes (RFC 8446 4.1.3).
    public var sessionID: [UInt8]

    /// The first group that is not GREASE: the share a server that reads only one looks at.
    public var firstKeyShareGroup: UInt16? { keyShareGroups.first { !AppleClientHello.isGREASE($0) } }

    /// Reads the ClientHello at the start of `bytes`; nil until the whole first record is there
    /// or when it is no ClientHello.
    /// - Parameter bytes: The bytes a client sent, from the first.
    /// - Returns: The summary, or nil.
    public static func read(_ bytes: [UInt8]) -> ClientHelloSummary? {
        guard bytes.count >= 5, bytes[0] == 0x16, bytes[1] == 3 else { return nil }
        let length = Int(bytes[3]) << 8 | Int(bytes[4])
        guard bytes.count >= 5 + length else { return nil }
        var r = AnswerBytes(Array(bytes[5..<(5 + length)]))
        guard r.u8() == 1, r.take(3) != nil, r.take(2 + 32) != nil, let session = r.u8(), let id = r.take(Int(session)),
            let suites = r.u16(), r.take(Int(suites)) != nil, let compression = r.u8(),
            r.take(Int(compression)) != nil, let total = r.u16(), let block = r.take(Int(total))
        else { return nil }
        var summary = ClientHelloSummary(recordBytes: 5 + length, keyShareGroups: [], sessionID: id)
        var e = AnswerBytes(block)
        // Each extension takes at least four bytes: bounded by the block.
        while !e.isEmpty {
            guard let type = e.u16(), let n = e.u16(), let data = e.take(Int(n)) else { return nil }
            guard type == 0x0033 else { continue }
            var d = AnswerBytes(data)
            guard let listLength = d.u16(), let list = d.take(Int(listLength)) else { return nil }
            var entries = AnswerBytes(list)
            while !entries.isEmpty {
                guard let group = entries.u16(), let size = entries.u16(), entries.take(Int(size)) != nil else {
                    return nil
                }
                summary.keyShareGroups.append(group)
            }
        }
        return summary
    }
}
