/// Rewrites BER as the strict DER reader reads it: indefinite lengths become definite, and a
/// constructed OCTET STRING becomes one primitive OCTET STRING of its segments' octets. PKCS#12
/// files are BER (RFC 7292 4: the authSafe and its bags are often written with constructed,
/// indefinite-length OCTET STRINGs), and their iteration counts must be read whatever the
/// encoding: what cannot be read this way is refused, never handed to OpenSSL.
enum BERNormalizer {
    /// Nesting deeper than this is refused (PKCS#12 files nest about a dozen levels).
    static let maximumDepth = 48

    /// `bytes`, one element, rewritten with definite lengths; throws when it is not BER, holds
    /// anything after the element, or nests deeper than `maximumDepth`.
    static func normalized(_ bytes: ArraySlice<UInt8>) throws(DecodingError) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var position = bytes.startIndex
        try element(bytes, &position, depth: 0, into: &out, octetsOnly: false)
        guard position == bytes.endIndex else {
            throw DecodingError(offset: position - bytes.startIndex, reason: "unexpected data after the BER element")
        }
        return out
    }

    /// Reads the element at `position` and appends its rewriting to `out` (only its octets, when
    /// `octetsOnly`: a segment of a constructed OCTET STRING).
    private static func element(
        _ b: ArraySlice<UInt8>, _ position: inout Int, depth: Int, into out: inout [UInt8], octetsOnly: Bool
    ) throws(DecodingError) {
        func fail(_ reason: String, _ at: Int) -> DecodingError {
            DecodingError(offset: at - b.startIndex, reason: reason)
        }
        let start = position
        guard depth <= maximumDepth else { throw fail("BER nesting deeper than \(maximumDepth) levels", start) }
        guard position < b.endIndex else { throw fail("unexpected end of data", position) }
        let tag = b[position]
        if tag & 0x1F == 0x1F { throw fail("unsupported multi-octet tag", position) }
        if octetsOnly && tag & 0xDF != DERTag.octetString {
            throw fail("a segment of a constructed OCTET STRING is not an OCTET STRING", position)
        }
        position += 1
        guard position < b.endIndex else { throw fail("missing length", position) }
        let first = b[position]
        position += 1
        var length: Int?
        if first & 0x80 == 0 {
            length = Int(first)
        } else if first != 0x80 {
            let count = Int(first & 0x7F)
            guard count <= 4 else { throw fail("length of more than 4 octets", start) }
            guard count <= b.endIndex - position else { throw fail("length runs past the end", start) }
            var n = 0
            for _ in 0..<count {
                n = n << 8 | Int(b[position])
                position += 1
            }
            length = n
        }
        let constructed = tag & 0x20 != 0
        if let length {
            guard length <= b.endIndex - position else { throw fail("content runs past the end", start) }
        } else if !constructed {
            throw fail("indefinite length on a primitive element", start)
        }
        let contentEnd = length.map { position + $0 }
        if !constructed {
            let content = b[position..<contentEnd!]
            if !octetsOnly { header(tag, content.count, into: &out) }
            out += content
            position = contentEnd!
            return
        }
        // Constructed: rewrite the children into a buffer of their own, then prefix the length.
        let flatten = octetsOnly || tag == DERTag.octetString | 0x20
        var children: [UInt8] = []
        while true {
            if let contentEnd {
                if position == contentEnd { break }
            } else {
                guard position < b.endIndex else { throw fail("missing end-of-contents octets", start) }
                if b[position] == 0 {
                    guard position + 1 < b.endIndex, b[position + 1] == 0 else {
                        throw fail("malformed end-of-contents octets", position)
                    }
                    position += 2
                    break
                }
            }
            try element(b, &position, depth: depth + 1, into: &children, octetsOnly: flatten)
            if let contentEnd, position > contentEnd { throw fail("an element runs past its parent", start) }
        }
        if octetsOnly {
            out += children
        } else {
            header(flatten ? DERTag.octetString : tag, children.count, into: &out)
            out += children
        }
    }

    /// Appends a tag and a minimal definite length.
    private static func header(_ tag: UInt8, _ length: Int, into out: inout [UInt8]) {
        out.append(tag)
        DERWriter.appendLength(length, to: &out)
    }
}
