import TrustSupport
import TrustX509

extension GeneralName {
    /// An iPAddress entry from IPv4 or IPv6 text (brackets allowed).
    /// - Throws: `BuilderError.unsupported` when the text is not an IP address.
    public static func ip(_ text: String) throws(BuilderError) -> GeneralName {
        guard let bytes = parseIPAddress(text) else { throw .unsupported("\(text) is not an IP address") }
        return .ipAddress(bytes)
    }

    /// A name-constraint iPAddress subtree (address then mask, RFC 5280 4.2.1.10) from CIDR
    /// text such as `10.0.0.0/8` or `fd00::/8`.
    /// - Throws: `BuilderError.unsupported` when the text is not a CIDR block.
    public static func ipSubnet(_ cidr: String) throws(BuilderError) -> GeneralName {
        let parts = cidr.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, let address = parseIPAddress(String(parts[0])), let prefix = Int(parts[1]),
            prefix >= 0, prefix <= address.count * 8
        else { throw .unsupported("\(cidr) is not a CIDR block") }
        var mask = [UInt8](repeating: 0, count: address.count)
        for bit in 0..<prefix { mask[bit / 8] |= 0x80 >> UInt8(bit % 8) }
        return .ipAddress(address + mask)
    }
}
