import TrustCore
import TrustSupport
import TrustX509

/// One element of a DER encoding, as `openssl asn1parse -i` and dumpasn1 list it.
public struct DERTreeNode: Hashable, Sendable {
    /// Where its tag is, from the start of the encoding.
    public var offset: Int
    /// How deep it is: 0 for the outermost element.
    public var depth: Int
    /// The tag and length octets.
    public var headerLength: Int
    /// The content octets.
    public var length: Int
    /// The tag octet.
    public var tag: UInt8
    /// The tag as openssl names it: `SEQUENCE`, `INTEGER`, `cont [ 0 ]`.
    public var name: String
    /// The value of a primitive, decoded (an OID's dotted form and name, a string, a time, an
    /// integer) or as hex at byte boundaries; nil for constructed elements and NULL.
    public var value: String?
    /// Whether it lies inside an OCTET STRING or BIT STRING whose content is itself DER (an
    /// extension's value, a public key): dumpasn1 opens these, `openssl asn1parse` does not.
    public var encapsulated: Bool

    /// Whether the element holds other elements.
    public var isConstructed: Bool { tag & 0x20 != 0 }

    /// The element as one line: `4: d=1 hl=4 l=447 cons: SEQUENCE`, then ` : value`.
    public var text: String {
        "\(offset): d=\(depth) hl=\(headerLength) l=\(length) \(isConstructed ? "cons" : "prim"): \(name)"
            + (value.map { " : " + $0 } ?? "")
    }
}

/// The DER tree of a certificate for the Detail pane. A certificate is attacker-supplied, so the
/// walk is bounded in depth and in elements; a bound reached or bytes that are not DER end the
/// tree with the reason and the offset.
public struct DERTree: Hashable, Sendable {
    /// The elements in encoding order.
    public var nodes: [DERTreeNode]
    /// Why the tree stops early, nil when every byte was read.
    public var problem: String?

    /// The deepest nesting shown (a certificate needs about 10).
    public static let maximumDepth = 24
    /// The most elements read, including tries at encapsulated content (a certificate has a few
    /// hundred).
    public static let maximumElements = 4000
    /// The most content bytes shown of one primitive.
    public static let maximumValueBytes = 1024

    /// Parses `der` into its elements.
    public static func parse(_ der: [UInt8]) -> DERTree {
        var parser = Parser(bytes: der)
        var nodes: [DERTreeNode] = []
        var problem: String?
        do {
            try parser.elements(0..<der.count, depth: 0, encapsulated: false, into: &nodes)
        } catch {
            problem = error.description
        }
        return DERTree(nodes: nodes, problem: problem)
    }

    /// The walk, with its element budget.
    struct Parser {
        let bytes: [UInt8]
        var read = 0

        /// Appends the elements tiling `range` (and their descendants) to `out`.
        mutating func elements(_ range: Range<Int>, depth: Int, encapsulated: Bool, into out: inout [DERTreeNode])
            throws(DecodingError)
        {
            var reader = DERReader(bytes, range: range)
            while !reader.isAtEnd {
                read += 1
                guard read <= DERTree.maximumElements else {
                    throw DecodingError(
                        offset: reader.position, reason: "stopped after \(DERTree.maximumElements) elements")
                }
                guard depth <= DERTree.maximumDepth else {
                    throw DecodingError(
                        offset: reader.position, reason: "stopped at nesting depth \(DERTree.maximumDepth)")
                }
                let node = try reader.readNode()
                var entry = DERTreeNode(
                    offset: node.start, depth: depth, headerLength: node.contentStart - node.start,
                    length: node.contentLength, tag: node.tag, name: DERTree.name(of: node.tag), value: nil,
                    encapsulated: encapsulated)
                if node.isConstructed {
                    out.append(entry)
                    try elements(node.contentRange, depth: depth + 1, encapsulated: encapsulated, into: &out)
                    continue
                }
                if let inner = encapsulatedRange(node) {
                    // Content that is DER itself is opened when all of it parses; otherwise it
                    // is shown as bytes, as openssl does.
                    var children: [DERTreeNode] = []
                    do {
                        try elements(inner, depth: depth + 1, encapsulated: true, into: &children)
                        if node.tag == DERTag.bitString { entry.value = "unused bits 0, encapsulates" }
                        out.append(entry)
                        out += children
                        continue
                    } catch {
                        // The try's elements stay counted: hostile nesting cannot buy more work.
                        if read > DERTree.maximumElements { throw error }
                    }
                }
                entry.value = DERTree.value(node.tag, bytes[node.contentRange])
                out.append(entry)
            }
        }

        /// The content an OCTET STRING or BIT STRING (with no unused bits) may encapsulate.
        func encapsulatedRange(_ node: DERNode) -> Range<Int>? {
            switch node.tag {
            case DERTag.octetString where node.contentLength >= 2:
                return node.contentRange
            case DERTag.bitString where node.contentLength >= 3 && bytes[node.contentStart] == 0:
                // A BIT STRING opens only onto a SEQUENCE (a key or a signature), never on
                // chance bytes of a plain bit string.
                guard bytes[node.contentStart + 1] == DERTag.sequence else { return nil }
                return (node.contentStart + 1)..<node.end
            default:
                return nil
            }
        }
    }

    /// openssl's names for universal tags, by number.
    static let universalNames = [
        "EOC", "BOOLEAN", "INTEGER", "BIT STRING", "OCTET STRING", "NULL", "OBJECT", "OBJECT DESCRIPTOR",
        "EXTERNAL", "REAL", "ENUMERATED", "EMBEDDED PDV", "UTF8STRING", "RELATIVE-OID", "<ASN1 14>", "<ASN1 15>",
        "SEQUENCE", "SET", "NUMERICSTRING", "PRINTABLESTRING", "T61STRING", "VIDEOTEXSTRING", "IA5STRING", "UTCTIME",
        "GENERALIZEDTIME", "GRAPHICSTRING", "VISIBLESTRING", "GENERALSTRING", "UNIVERSALSTRING", "<ASN1 29>",
        "BMPSTRING",
    ]

    /// The tag as openssl names it.
    static func name(of tag: UInt8) -> String {
        let number = Int(tag & 0x1F)
        switch tag & 0xC0 {
        case 0x00: return universalNames.indices.contains(number) ? universalNames[number] : "<ASN1 \(number)>"
        case 0x40: return "appl [ \(number) ]"
        case 0x80: return "cont [ \(number) ]"
        default: return "priv [ \(number) ]"
        }
    }

    /// A primitive's value in words: decoded where the type says how, else hex.
    static func value(_ tag: UInt8, _ content: ArraySlice<UInt8>) -> String? {
        switch tag {
        case DERTag.null: return nil
        case DERTag.boolean: return content.count == 1 ? (content.first == 0 ? "FALSE" : "TRUE") : hex(content)
        case DERTag.integer, DERTag.enumerated:
            if content.count <= 7, let first = content.first {
                var v = Int64(Int8(bitPattern: first))
                for b in content.dropFirst() { v = v << 8 | Int64(b) }
                return String(v)
            }
            return hex(content)
        case DERTag.oid:
            let oid = OID(bytes: Array(content.prefix(64)))
            return oid.name == oid.dotted ? oid.dotted : "\(oid.dotted) \(oid.name)"
        case DERTag.utf8String, DERTag.printableString, DERTag.ia5String, DERTag.teletexString,
            DERTag.visibleString, DERTag.utcTime, DERTag.generalizedTime, 0x12:
            return quoted(content)
        case DERTag.bitString:
            guard let unused = content.first else { return hex(content) }
            return "unused bits \(unused), " + hex(content.dropFirst())
        default:
            // An implicitly tagged string (a dNSName, a URI) reads as text when it is printable.
            if tag & 0xC0 == 0x80, !content.isEmpty, content.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
                return quoted(content)
            }
            return hex(content)
        }
    }

    /// The bytes as text in quotes, escaped for the terminal and cut at the value bound.
    static func quoted(_ content: ArraySlice<UInt8>) -> String {
        let shown = content.prefix(maximumValueBytes)
        let more = content.count - shown.count
        return "\"" + TerminalSanitizer.sanitize(bytes: shown) + "\"" + (more > 0 ? " (\(more) more bytes)" : "")
    }

    /// Hex bytes separated by spaces (so wrapping breaks between bytes), cut at the value bound.
    static func hex(_ content: ArraySlice<UInt8>) -> String {
        guard !content.isEmpty else { return "(empty)" }
        let shown = content.prefix(maximumValueBytes)
        let more = content.count - shown.count
        return hexString(shown, separator: " ").uppercased() + (more > 0 ? " (\(more) more bytes)" : "")
    }
}
