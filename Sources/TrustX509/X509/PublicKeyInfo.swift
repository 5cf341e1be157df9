/// SubjectPublicKeyInfo (RFC 5280 4.1.2.7).
public struct PublicKeyInfo: Hashable, Sendable {
    /// The whole SubjectPublicKeyInfo DER: what SPKI pins hash.
    public var der: [UInt8]
    /// The key algorithm.
    public var algorithm: AlgorithmIdentifier
    /// The subjectPublicKey BIT STRING's octets (PKCS#1 for RSA, the point for EC, raw for EdDSA).
    public var keyBytes: [UInt8]
    /// The key type.
    public var type: KeyType
    /// Key size in bits (RSA modulus length, curve size, 256/456 for Ed25519/Ed448), 0 if unknown.
    public var bits: Int

    static func decode(_ reader: DERReader, node: DERNode) throws(DecodingError) -> PublicKeyInfo {
        var inner = reader.reader(inside: node)
        let algNode = try inner.read(DERTag.sequence, "an AlgorithmIdentifier")
        let algorithm = try AlgorithmIdentifier.decode(inner, node: algNode)
        let keyNode = try inner.read(DERTag.bitString, "a subjectPublicKey BIT STRING")
        try inner.expectEnd("subjectPublicKey")
        let (key, unused) = try inner.bitString(keyNode)
        guard unused == 0 else { throw inner.fail("subjectPublicKey has unused bits", at: keyNode.start) }
        var type = KeyType.unknown(algorithm.oid)
        var bits = 0
        switch algorithm.oid {
        case .rsaEncryption, .rsassaPSS:
            type = .rsa
            var r = DERReader(key)
            if let seq = try? r.read(DERTag.sequence, "RSAPublicKey") {
                var k = r.reader(inside: seq)
                if let n = try? k.read(DERTag.integer, "modulus") {
                    var modulus = k.content(n).drop { $0 == 0 }
                    if let first = modulus.first {
                        bits = (modulus.count - 1) * 8 + (8 - first.leadingZeroBitCount)
                        modulus = []
                    }
                }
            }
            if bits == 0 { throw inner.fail("RSA public key does not decode", at: keyNode.contentStart) }
        case .ecPublicKey:
            var curve: OID?
            if let params = algorithm.parameters, params.first == DERTag.oid {
                var r = DERReader(params)
                curve = try? r.objectIdentifier(try r.readNode())
            }
            type = .ec(curve: curve)
            switch curve {
            case .prime256v1?, .secp256k1?: bits = 256
            case .secp384r1?: bits = 384
            case .secp521r1?: bits = 521
            case .secp224r1?: bits = 224
            case .prime192v1?: bits = 192
            default: bits = 0
            }
        case .ed25519:
            type = .ed25519
            bits = 256
        case .ed448:
            type = .ed448
            bits = 456
        case .dsa:
            type = .dsa
        default:
            break
        }
        return PublicKeyInfo(
            der: Array(reader.bytes[node.fullRange]), algorithm: algorithm, keyBytes: key,
            type: type, bits: bits)
    }
}
