/// Dotted IPv4, RFC 5952 IPv6, `addr/mask` for 8 or 32 octets, hex otherwise.
public func formatIPAddress(_ b: [UInt8]) -> String {
    switch b.count {
    case 4: return b.map(String.init).joined(separator: ".")
    case 16:
        var groups: [Int] = []
        for i in stride(from: 0, to: 16, by: 2) { groups.append(Int(b[i]) << 8 | Int(b[i + 1])) }
        // RFC 5952: compress the longest run (length >= 2) of zero groups, the first on ties.
        var bestStart = -1
        var bestLength = 0
        var i = 0
        while i < 8 {
            if groups[i] == 0 {
                var j = i
                while j < 8 && groups[j] == 0 { j += 1 }
                if j - i > bestLength && j - i >= 2 {
                    bestStart = i
                    bestLength = j - i
                }
                i = j
            } else {
                i += 1
            }
        }
        func hexGroup(_ g: Int) -> String { String(g, radix: 16) }
        if bestStart < 0 { return groups.map(hexGroup).joined(separator: ":") }
        let head = groups[0..<bestStart].map(hexGroup).joined(separator: ":")
        let tail = groups[(bestStart + bestLength)...].map(hexGroup).joined(separator: ":")
        return head + "::" + tail
    case 8: return formatIPAddress(Array(b[0..<4])) + "/" + formatIPAddress(Array(b[4..<8]))
    case 32: return formatIPAddress(Array(b[0..<16])) + "/" + formatIPAddress(Array(b[16..<32]))
    default: return hexString(b, separator: ":")
    }
}

/// Parses an IPv4 or IPv6 literal (brackets allowed, no zone) into 4 or 16 octets.
public func parseIPAddress(_ text: String) -> [UInt8]? {
    // The brackets are looked for as bytes: this runs for every host and name checked.
    let utf8 = text.utf8
    var s = text[...]
    if utf8.count >= 2, utf8.first == UInt8(ascii: "["), utf8.last == UInt8(ascii: "]") {
        s = text[utf8.index(after: utf8.startIndex)..<utf8.index(before: utf8.endIndex)]
    }
    if !s.utf8.contains(UInt8(ascii: ":")) { return parseIPv4(s.utf8) }
    // IPv6, possibly with an embedded IPv4 tail.
    let halves = String(s).components(separatedBy: "::")
    guard halves.count <= 2 else { return nil }
    func groups(_ part: String) -> [UInt8]? {
        if part.isEmpty { return [] }
        var out: [UInt8] = []
        let items = part.split(separator: ":", omittingEmptySubsequences: false)
        for (i, item) in items.enumerated() {
            if i == items.count - 1 && item.contains(".") {
                guard let v4 = parseIPAddress(String(item)), v4.count == 4 else { return nil }
                out += v4
                continue
            }
            guard !item.isEmpty, item.count <= 4, let v = UInt16(item, radix: 16) else { return nil }
            out += [UInt8(v >> 8), UInt8(v & 0xFF)]
        }
        return out
    }
    if halves.count == 1 {
        guard let all = groups(halves[0]), all.count == 16 else { return nil }
        return all
    }
    guard let head = groups(halves[0]), let tail = groups(halves[1]), head.count + tail.count <= 14 else {
        return nil
    }
    return head + Array(repeating: 0, count: 16 - head.count - tail.count) + tail
}

/// A dotted quad read byte by byte: four parts of one to three ASCII digits, each at most 255,
/// none with a leading zero (`010` is octal to some parsers, so it is refused). Every certificate
/// name and host checked goes through here, so it reads bytes rather than characters.
private func parseIPv4(_ bytes: Substring.UTF8View) -> [UInt8]? {
    var out: [UInt8] = []
    out.reserveCapacity(4)
    var value = 0
    var digits = 0
    var leadingZero = false
    for b in bytes {
        if b == UInt8(ascii: ".") {
            guard digits > 0, out.count < 3 else { return nil }
            out.append(UInt8(value))
            (value, digits, leadingZero) = (0, 0, false)
            continue
        }
        guard b >= UInt8(ascii: "0"), b <= UInt8(ascii: "9"), digits < 3, !leadingZero else { return nil }
        leadingZero = digits == 0 && b == UInt8(ascii: "0")
        value = value * 10 + Int(b - UInt8(ascii: "0"))
        digits += 1
        guard value <= 255 else { return nil }
    }
    guard digits > 0, out.count == 3 else { return nil }
    out.append(UInt8(value))
    return out
}

extension String {
    fileprivate func components(separatedBy separator: String) -> [String] {
        var result: [String] = []
        var current = ""
        var rest = Substring(self)
        while let range = rest.firstRange(of: separator) {
            current = String(rest[..<range.lowerBound])
            result.append(current)
            rest = rest[range.upperBound...]
        }
        result.append(String(rest))
        return result
    }
}
