import TrustSupport

/// Writes DER (X.690): definite, minimal lengths; minimal INTEGERs; SET OF sorted.
///
/// Used by `CertificateBuilder`, and usable on its own to make raw extension values for lab
/// and test certificates:
///
/// ```swift
/// let value = DERWriter.encode { w in w.sequence { w.boolean(true) } }
/// ```
public struct DERWriter: Sendable {
    /// The bytes written so far.
    public private(set) var bytes: [UInt8] = []

    /// Creates an empty writer.
    public init() {}

    /// Runs `body` on a fresh writer and returns what it wrote.
    public static func encode(_ body: (inout DERWriter) throws -> Void) rethrows -> [UInt8] {
        var w = DERWriter()
        try body(&w)
        return w.bytes
    }

    // MARK: - Elements

    /// Writes one element: the identifier octet, a minimal length and `content`.
    ///
    /// - Parameters:
    ///   - tag: the identifier octet (low tag numbers only, as X.509 needs).
    ///   - content: the content octets.
    public mutating func element(tag: UInt8, content: [UInt8]) {
        bytes.append(tag)
        DERWriter.appendLength(content.count, to: &bytes)
        bytes += content
    }

    /// Writes a constructed element whose content `body` writes.
    public mutating func constructed(tag: UInt8, _ body: (inout DERWriter) throws -> Void) rethrows {
        element(tag: tag, content: try DERWriter.encode(body))
    }

    /// Appends already-encoded DER unchanged.
    public mutating func raw(_ der: [UInt8]) { bytes += der }

    /// Writes a SEQUENCE.
    public mutating func sequence(_ body: (inout DERWriter) throws -> Void) rethrows {
        try constructed(tag: 0x30, body)
    }

    /// Writes a SET OF whose elements are `elements` (each a full encoding), sorted as X.690
    /// 11.6 requires of DER.
    public mutating func setOf(_ elements: [[UInt8]]) {
        element(tag: 0x31, content: elements.sorted { $0.lexicographicallyPrecedes($1) }.flatMap { $0 })
    }

    /// Writes a context-specific `[number]` element; constructed for EXPLICIT tagging and for
    /// IMPLICIT tagging of constructed types.
    public mutating func contextSpecific(
        _ number: UInt8, constructed isConstructed: Bool = true,
        _ body: (inout DERWriter) throws -> Void
    ) rethrows {
        try constructed(tag: 0x80 | (isConstructed ? 0x20 : 0) | number, body)
    }

    // MARK: - Primitive values

    /// Writes a BOOLEAN (0xFF for true, as DER requires).
    public mutating func boolean(_ value: Bool) { element(tag: 0x01, content: [value ? 0xFF : 0x00]) }

    /// Writes NULL.
    public mutating func null() { element(tag: 0x05, content: []) }

    /// Writes an INTEGER from a signed value.
    public mutating func integer(_ value: Int) {
        var content: [UInt8] = []
        var v = value
        repeat {
            content.insert(UInt8(truncatingIfNeeded: v), at: 0)
            v >>= 8
        } while v != 0 && v != -1
        // Keep the sign bit right: a positive value whose top bit is set needs a leading zero,
        // a negative one whose top bit is clear needs a leading 0xFF.
        if value >= 0 && content[0] & 0x80 != 0 { content.insert(0, at: 0) }
        if value < 0 && content[0] & 0x80 == 0 { content.insert(0xFF, at: 0) }
        element(tag: 0x02, content: content)
    }

    /// Writes a non-negative INTEGER from its big-endian magnitude: leading zero octets are
    /// dropped and one is added back when the top bit is set (X.690 8.3.2).
    public mutating func integer(magnitude: [UInt8]) {
        var m = Array(magnitude.drop { $0 == 0 })
        if m.isEmpty { m = [0] }
        if m[0] & 0x80 != 0 { m.insert(0, at: 0) }
        element(tag: 0x02, content: m)
    }

    /// Writes a BIT STRING of whole octets, or with `unusedBits` in the last octet (which the
    /// caller keeps zero).
    public mutating func bitString(_ value: [UInt8], unusedBits: Int = 0) {
        element(tag: 0x03, content: [UInt8(unusedBits)] + value)
    }

    /// Writes a named-bit BIT STRING (such as keyUsage) from the numbers of the bits set, with
    /// trailing zero bits removed as X.690 11.2.2 requires.
    public mutating func namedBits(_ bitNumbers: Set<Int>) {
        guard let highest = bitNumbers.max() else {
            element(tag: 0x03, content: [0])
            return
        }
        var octets = [UInt8](repeating: 0, count: highest / 8 + 1)
        for n in bitNumbers { octets[n / 8] |= 0x80 >> UInt8(n % 8) }
        let unused = 7 - highest % 8
        bitString(octets, unusedBits: unused)
    }

    /// Writes an OCTET STRING.
    public mutating func octetString(_ value: [UInt8]) { element(tag: 0x04, content: value) }

    /// Writes an OBJECT IDENTIFIER.
    public mutating func oid(_ value: OID) { element(tag: 0x06, content: value.bytes) }

    /// Writes a UTF8String.
    public mutating func utf8String(_ value: String) { element(tag: 0x0C, content: Array(value.utf8)) }

    /// Writes a PrintableString (the caller keeps to its character set).
    public mutating func printableString(_ value: String) { element(tag: 0x13, content: Array(value.utf8)) }

    /// Writes an IA5String (the caller keeps to ASCII).
    public mutating func ia5String(_ value: String) { element(tag: 0x16, content: Array(value.utf8)) }

    /// Writes a time as RFC 5280 4.1.2.5 requires: UTCTime (`YYMMDDHHMMSSZ`) through 2049,
    /// GeneralizedTime (`YYYYMMDDHHMMSSZ`) from 2050 on.
    public mutating func time(_ t: Timestamp) {
        let (year, month, day) = Timestamp.civilFromDays(floorDiv(t.secondsSinceEpoch, 86_400))
        let seconds = t.secondsSinceEpoch - floorDiv(t.secondsSinceEpoch, 86_400) * 86_400
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        let rest = two(month) + two(day) + two(seconds / 3600) + two(seconds / 60 % 60) + two(seconds % 60) + "Z"
        if year >= 1950 && year < 2050 {
            element(tag: 0x17, content: Array((two(year % 100) + rest).utf8))
        } else {
            let y = String(year)
            element(tag: 0x18, content: Array((String(repeating: "0", count: max(0, 4 - y.count)) + y + rest).utf8))
        }
    }

    /// Writes a GeneralName (RFC 5280 4.2.1.6) with its IMPLICIT context tag.
    public mutating func generalName(_ name: GeneralName) {
        switch name {
        case .otherName(let type, let value):
            contextSpecific(0) { w in
                w.oid(type)
                w.contextSpecific(0) { $0.raw(value) }
            }
        case .rfc822Name(let s): element(tag: 0x81, content: Array(s.utf8))
        case .dnsName(let s): element(tag: 0x82, content: Array(s.utf8))
        case .x400Address(let b): element(tag: 0xA3, content: b)
        case .directoryName(let n): contextSpecific(4) { $0.raw(n.der) }
        case .ediPartyName(let b): element(tag: 0xA5, content: b)
        case .uri(let s): element(tag: 0x86, content: Array(s.utf8))
        case .ipAddress(let b): element(tag: 0x87, content: b)
        case .registeredID(let oid): element(tag: 0x88, content: oid.bytes)
        }
    }

    // MARK: - Lengths

    static func appendLength(_ length: Int, to out: inout [UInt8]) {
        if length < 0x80 {
            out.append(UInt8(length))
            return
        }
        var octets: [UInt8] = []
        var n = length
        while n > 0 {
            octets.insert(UInt8(n & 0xFF), at: 0)
            n >>= 8
        }
        out.append(0x80 | UInt8(octets.count))
        out += octets
    }
}
