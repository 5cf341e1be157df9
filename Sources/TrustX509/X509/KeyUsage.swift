/// keyUsage bits (RFC 5280 4.2.1.3), bit 0 = digitalSignature.
public struct KeyUsage: Hashable, Sendable {
    /// The bits as a mask, bit n at `1 << n`.
    public var bits: UInt16

    /// The RFC 5280 names, in bit order.
    public static let names = [
        "digitalSignature", "nonRepudiation", "keyEncipherment", "dataEncipherment", "keyAgreement",
        "keyCertSign", "cRLSign", "encipherOnly", "decipherOnly",
    ]

    /// Whether bit `n` is set.
    public func has(_ n: Int) -> Bool { bits & (1 << n) != 0 }
    /// keyCertSign (bit 5).
    public var keyCertSign: Bool { has(5) }
    /// The names of the set bits.
    public var setNames: [String] { (0..<9).filter { has($0) }.map { KeyUsage.names[$0] } }
}
