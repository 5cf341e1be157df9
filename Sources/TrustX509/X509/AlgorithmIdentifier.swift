/// An AlgorithmIdentifier: an algorithm and its parameters' DER, if any.
public struct AlgorithmIdentifier: Hashable, Sendable {
    /// The algorithm.
    public var oid: OID
    /// The full DER of the parameters element, nil when absent (NULL is kept as `[0x05, 0x00]`).
    public var parameters: [UInt8]?
    /// The whole AlgorithmIdentifier DER, for comparing the two signature fields.
    public var der: [UInt8]

    /// The short name, e.g. `ecdsa-with-SHA256`.
    public var name: String { oid.name }
}

extension AlgorithmIdentifier {
    static func decode(_ reader: DERReader, node: DERNode) throws(DecodingError) -> AlgorithmIdentifier {
        var inner = reader.reader(inside: node)
        let oid = try inner.objectIdentifier(try inner.read(DERTag.oid, "an algorithm OID"))
        var params: [UInt8]?
        if !inner.isAtEnd {
            let p = try inner.readNode()
            params = Array(reader.bytes[p.fullRange])
        }
        try inner.expectEnd("AlgorithmIdentifier parameters")
        return AlgorithmIdentifier(oid: oid, parameters: params, der: Array(reader.bytes[node.fullRange]))
    }
}
