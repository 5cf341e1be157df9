import TrustSupport

/// An error raised while decoding DER, PEM or a container, naming where it happened.
public struct DecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The byte offset in the decoded input at which the problem was found.
    public var offset: Int
    /// What was wrong, in plain words.
    public var reason: String
    /// The file the input came from, when known.
    public var file: String?

    /// Creates an error at `offset` with `reason`.
    public init(offset: Int, reason: String, file: String? = nil) {
        self.offset = offset
        self.reason = reason
        self.file = file
    }

    /// One line: `file: byte N: reason`.
    public var description: String {
        let location = "byte \(offset): \(reason)"
        guard let file else { return location }
        return "\(file): \(location)"
    }

    /// The same error, attributed to `file`.
    public func inFile(_ file: String) -> DecodingError {
        var copy = self
        copy.file = file
        return copy
    }
}

/// One TLV element: its tag and where its header and content lie in the buffer.
package struct DERNode: Sendable {
    /// The identifier octet (class, constructed bit and low tag number).
    package var tag: UInt8
    /// Offset of the identifier octet.
    package var start: Int
    /// Offset of the first content octet.
    package var contentStart: Int
    /// Offset one past the last content octet.
    package var end: Int

    package var contentRange: Range<Int> { contentStart..<end }
    package var fullRange: Range<Int> { start..<end }
    package var isConstructed: Bool { tag & 0x20 != 0 }
    package var contentLength: Int { end - contentStart }
}

/// ASN.1 identifier octets used by X.509.
package enum DERTag {
    package static let boolean: UInt8 = 0x01
    package static let integer: UInt8 = 0x02
    package static let bitString: UInt8 = 0x03
    package static let octetString: UInt8 = 0x04
    package static let null: UInt8 = 0x05
    package static let oid: UInt8 = 0x06
    package static let enumerated: UInt8 = 0x0A
    package static let utf8String: UInt8 = 0x0C
    package static let printableString: UInt8 = 0x13
    package static let teletexString: UInt8 = 0x14
    package static let ia5String: UInt8 = 0x16
    package static let utcTime: UInt8 = 0x17
    package static let generalizedTime: UInt8 = 0x18
    package static let visibleString: UInt8 = 0x1A
    package static let universalString: UInt8 = 0x1C
    package static let bmpString: UInt8 = 0x1E
    package static let sequence: UInt8 = 0x30
    package static let set: UInt8 = 0x31

    package static func contextSpecific(_ number: UInt8, constructed: Bool) -> UInt8 {
        0x80 | (constructed ? 0x20 : 0) | number
    }
}

/// A strict DER reader over a byte array: definite, minimal lengths only, never reading past
/// its limit. Every failure is a `DecodingError` with the offset; nothing here traps.
package struct DERReader {
    package let bytes: [UInt8]
    package private(set) var position: Int
    package let limit: Int

    package init(_ bytes: [UInt8]) {
        self.bytes = bytes
        self.position = 0
        self.limit = bytes.count
    }

    package init(_ bytes: [UInt8], range: Range<Int>) {
        self.bytes = bytes
        self.position = range.lowerBound
        self.limit = range.upperBound
    }

    /// A reader over the content of a constructed node.
    package func reader(inside node: DERNode) -> DERReader {
        DERReader(bytes, range: node.contentRange)
    }

    package var isAtEnd: Bool { position >= limit }

    package func fail(_ reason: String, at offset: Int? = nil) -> DecodingError {
        DecodingError(offset: offset ?? position, reason: reason)
    }

    /// The tag of the next element without consuming it, or nil at the end.
    package func peekTag() -> UInt8? {
        position < limit ? bytes[position] : nil
    }

    /// Reads the next element, whatever its tag.
    package mutating func readNode() throws(DecodingError) -> DERNode {
        let start = position
        guard position < limit else { throw fail("unexpected end of data") }
        let tag = bytes[position]
        // X.509 never needs the high-tag-number form; refusing it keeps tags one octet.
        if tag & 0x1F == 0x1F { throw fail("unsupported multi-octet tag") }
        position += 1
        guard position < limit else { throw fail("missing length") }
        let first = bytes[position]
        position += 1
        var length = 0
        if first < 0x80 {
            length = Int(first)
        } else if first == 0x80 {
            throw fail("indefinite length is not DER", at: position - 1)
        } else {
            let count = Int(first & 0x7F)
            guard count <= 4 else { throw fail("length of \(count) octets is too large", at: position - 1) }
            guard limit - position >= count else { throw fail("truncated length") }
            guard bytes[position] != 0 else { throw fail("non-minimal length encoding", at: position) }
            for _ in 0..<count {
                length = (length << 8) | Int(bytes[position])
                position += 1
            }
            guard length >= 0x80 else { throw fail("non-minimal length encoding", at: start + 1) }
        }
        guard length <= limit - position else {
            throw fail("element of \(length) bytes runs past the end of its container", at: start)
        }
        let node = DERNode(tag: tag, start: start, contentStart: position, end: position + length)
        position = node.end
        return node
    }

    /// Reads the next element and requires `tag`.
    package mutating func read(_ tag: UInt8, _ what: @autoclosure () -> String) throws(DecodingError) -> DERNode {
        let offset = position
        guard let next = peekTag() else { throw fail("expected \(what()), found end of data") }
        guard next == tag else {
            throw fail("expected \(what()) (tag 0x\(hex(tag))), found tag 0x\(hex(next))", at: offset)
        }
        return try readNode()
    }

    /// Reads the next element only if it carries `tag`.
    package mutating func readOptional(_ tag: UInt8) throws(DecodingError) -> DERNode? {
        guard peekTag() == tag else { return nil }
        return try readNode()
    }

    /// Requires that nothing follows inside this reader's range.
    package func expectEnd(_ what: @autoclosure () -> String) throws(DecodingError) {
        if position < limit { throw fail("unexpected data after \(what())") }
    }

    // MARK: - Primitive values

    package func content(_ node: DERNode) -> ArraySlice<UInt8> {
        bytes[node.contentRange]
    }

    package func boolean(_ node: DERNode) throws(DecodingError) -> Bool {
        guard node.contentLength == 1 else { throw fail("BOOLEAN must be one octet", at: node.start) }
        switch bytes[node.contentStart] {
        case 0x00: return false
        case 0xFF: return true
        default: throw fail("BOOLEAN must be 0x00 or 0xFF in DER", at: node.contentStart)
        }
    }

    /// Validates an INTEGER's minimal encoding and returns its content octets.
    package func integerBytes(_ node: DERNode) throws(DecodingError) -> [UInt8] {
        let c = node.contentRange
        guard !c.isEmpty else { throw fail("empty INTEGER", at: node.start) }
        if c.count > 1 {
            let a = bytes[c.lowerBound]
            let b = bytes[c.lowerBound + 1]
            if (a == 0x00 && b & 0x80 == 0) || (a == 0xFF && b & 0x80 != 0) {
                throw fail("non-minimal INTEGER encoding", at: node.contentStart)
            }
        }
        return Array(bytes[c])
    }

    /// A small INTEGER as an Int (for versions, path lengths, skip certs).
    package func smallInteger(_ node: DERNode) throws(DecodingError) -> Int {
        let raw = try integerBytes(node)
        guard raw.count <= 4 else { throw fail("INTEGER too large", at: node.start) }
        var value = Int(Int8(bitPattern: raw[0]))
        for byte in raw.dropFirst() { value = (value << 8) | Int(byte) }
        return value
    }

    /// A BIT STRING's bytes and the count of unused bits in its last octet.
    package func bitString(_ node: DERNode) throws(DecodingError) -> (bytes: [UInt8], unusedBits: Int) {
        let c = node.contentRange
        guard !c.isEmpty else { throw fail("empty BIT STRING", at: node.start) }
        let unused = Int(bytes[c.lowerBound])
        guard unused < 8 else { throw fail("BIT STRING with \(unused) unused bits", at: c.lowerBound) }
        if c.count == 1 && unused != 0 { throw fail("empty BIT STRING with unused bits", at: c.lowerBound) }
        if unused > 0, let last = c.last, bytes[last] & UInt8((1 << unused) - 1) != 0 {
            throw fail("BIT STRING unused bits are not zero", at: last)
        }
        return (Array(bytes[(c.lowerBound + 1)..<c.upperBound]), unused)
    }

    package func objectIdentifier(_ node: DERNode) throws(DecodingError) -> OID {
        let c = node.contentRange
        guard !c.isEmpty else { throw fail("empty OBJECT IDENTIFIER", at: node.start) }
        // Each subidentifier must be minimally encoded and terminated.
        var atStart = true
        for i in c {
            let byte = bytes[i]
            if atStart && byte == 0x80 { throw fail("non-minimal OBJECT IDENTIFIER", at: i) }
            atStart = byte & 0x80 == 0
        }
        guard atStart else { throw fail("truncated OBJECT IDENTIFIER", at: node.start) }
        return OID(bytes: Array(bytes[c]))
    }

    /// UTCTime or GeneralizedTime, in the forms RFC 5280 4.1.2.5 allows (seconds, `Z`).
    package func time(_ node: DERNode) throws(DecodingError) -> Timestamp {
        let c = content(node)
        let digits = Array(c)
        func num(_ from: Int, _ count: Int) throws(DecodingError) -> Int {
            var v = 0
            for i in from..<(from + count) {
                let d = digits[i]
                guard d >= 0x30 && d <= 0x39 else { throw fail("time has a non-digit", at: node.contentStart + i) }
                v = v * 10 + Int(d - 0x30)
            }
            return v
        }
        var year: Int
        var i: Int
        switch node.tag {
        case DERTag.utcTime:
            guard digits.count == 13, digits[12] == 0x5A else {
                throw fail("UTCTime must be YYMMDDHHMMSSZ", at: node.start)
            }
            let yy = try num(0, 2)
            // RFC 5280 4.1.2.5.1: YY >= 50 is 19YY, otherwise 20YY.
            year = yy >= 50 ? 1900 + yy : 2000 + yy
            i = 2
        case DERTag.generalizedTime:
            guard digits.count == 15, digits[14] == 0x5A else {
                throw fail("GeneralizedTime must be YYYYMMDDHHMMSSZ", at: node.start)
            }
            year = try num(0, 4)
            i = 4
        default:
            throw fail("expected a time (tag 0x17 or 0x18), found tag 0x\(hex(node.tag))", at: node.start)
        }
        let month = try num(i, 2)
        let day = try num(i + 2, 2)
        let hour = try num(i + 4, 2)
        let minute = try num(i + 6, 2)
        let second = try num(i + 8, 2)
        guard let t = Timestamp(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
        else { throw fail("time is not a valid calendar date", at: node.start) }
        return t
    }
}
