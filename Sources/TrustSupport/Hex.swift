/// Two lowercase hexadecimal digits of `byte`.
package func hex(_ byte: UInt8) -> String {
    let digits: [Character] = Array("0123456789abcdef")
    return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
}

/// Lowercase hexadecimal of `bytes`, optionally separated.
public func hexString<C: Collection>(_ bytes: C, separator: String = "") -> String where C.Element == UInt8 {
    var out = ""
    out.reserveCapacity(bytes.count * (2 + separator.count))
    var first = true
    for b in bytes {
        if !first { out += separator }
        out += hex(b)
        first = false
    }
    return out
}
