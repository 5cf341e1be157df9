import TrustSupport

/// The binary form (`bplist00`): an 8-byte header, objects, an offset table and a 32-byte
/// trailer. Objects refer to each other by index, so a hostile file can loop (an array holding
/// itself) or share one object many times (each level of arrays holding the one below twice
/// doubles the tree): the reader refuses cycles, and counts every visit against the object
/// budget, so a shared object costs what its copies would.
struct BinaryPropertyListReader {
    private let bytes: [UInt8]
    private let limits: PropertyListLimits
    private let offsetSize: Int
    private let referenceSize: Int
    private let objectCount: Int
    private let topObject: Int
    private let offsetTable: Int
    private var visits = 0
    /// Bytes of strings and data produced, each use of a shared one counted again.
    private var produced = 0
    /// Objects on the path from the top object to the one being read: meeting one again is a cycle.
    private var open: Set<Int> = []

    /// Seconds between 1970-01-01 and 2001-01-01, the epoch of binary dates.
    static let referenceDate = 978_307_200.0

    init(_ bytes: [UInt8], limits: PropertyListLimits) throws(PropertyListError) {
        self.bytes = bytes
        self.limits = limits
        guard bytes.count >= 8 + 1 + 32 else {
            throw PropertyListError(.malformed("a binary property list shorter than its header and trailer"), at: 0)
        }
        let t = bytes.count - 32
        offsetSize = Int(bytes[t + 6])
        referenceSize = Int(bytes[t + 7])
        let count = Self.uint(bytes, at: t + 8, size: 8)
        let top = Self.uint(bytes, at: t + 16, size: 8)
        let table = Self.uint(bytes, at: t + 24, size: 8)
        guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
            throw PropertyListError(.malformed("the trailer's offset or reference size is not 1 to 8 bytes"), at: t)
        }
        guard count >= 1, count <= UInt64(limits.maximumObjects) else {
            throw PropertyListError(
                count == 0
                    ? .malformed("the trailer counts no objects") : .tooManyObjects(limit: limits.maximumObjects),
                at: t + 8)
        }
        guard top < count else {
            throw PropertyListError(.malformed("the top object \(top) is not one of the \(count) objects"), at: t + 16)
        }
        // The table lies between the header and the trailer (the counts are bounded above, so
        // the product cannot overflow).
        guard table >= 8, table <= UInt64(t), UInt64(t) - table >= count * UInt64(offsetSize) else {
            throw PropertyListError(.malformed("the offset table lies outside the file"), at: t + 24)
        }
        objectCount = Int(count)
        topObject = Int(top)
        offsetTable = Int(table)
    }

    /// A big-endian unsigned integer of `size` (1...8) bytes; the caller checked the bounds.
    private static func uint(_ bytes: [UInt8], at offset: Int, size: Int) -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<size { v = v << 8 | UInt64(bytes[offset + k]) }
        return v
    }

    mutating func read() throws(PropertyListError) -> PropertyListValue {
        try object(topObject, depth: 0)
    }

    private func malformed(_ what: String, at offset: Int) -> PropertyListError {
        PropertyListError(.malformed(what), at: offset)
    }

    /// Where object `index` starts: inside the object area, between the header and the table.
    private func offset(of index: Int) throws(PropertyListError) -> Int {
        let entry = offsetTable + index * offsetSize
        let o = Self.uint(bytes, at: entry, size: offsetSize)
        guard o >= 8, o < UInt64(offsetTable) else {
            throw malformed("object \(index)'s offset \(o) lies outside the object area", at: entry)
        }
        return Int(o)
    }

    /// `count` bytes from `at` must lie before the offset table.
    private func need(_ count: Int, at: Int, for what: String) throws(PropertyListError) {
        guard count >= 0, at <= offsetTable, offsetTable - at >= count else {
            throw malformed("\(what) runs past the object area", at: at)
        }
    }

    /// The count in a marker's low nibble, or the integer object after it when the nibble is 0xF.
    private func length(_ marker: UInt8, at offset: Int) throws(PropertyListError) -> (count: Int, start: Int) {
        let nibble = Int(marker & 0x0F)
        if nibble != 0x0F { return (nibble, offset + 1) }
        try need(1, at: offset + 1, for: "a length")
        let intMarker = bytes[offset + 1]
        guard intMarker & 0xF0 == 0x10, intMarker & 0x0F <= 3 else {
            throw malformed("a length that is not an integer of 1 to 8 bytes", at: offset + 1)
        }
        let size = 1 << Int(intMarker & 0x0F)
        try need(size, at: offset + 2, for: "a length")
        let v = Self.uint(bytes, at: offset + 2, size: size)
        // No count can exceed the file's size; larger ones would only overflow arithmetic.
        guard v <= UInt64(bytes.count) else { throw malformed("a length of \(v) exceeds the file", at: offset + 1) }
        return (Int(v), offset + 2 + size)
    }

    private mutating func object(_ index: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
        visits += 1
        guard visits <= limits.maximumObjects else {
            throw PropertyListError(.tooManyObjects(limit: limits.maximumObjects))
        }
        let at = try offset(of: index)
        let marker = bytes[at]
        switch marker >> 4 {
        case 0x0:
            switch marker {
            case 0x08: return .bool(false)
            case 0x09: return .bool(true)
            case 0x00: throw PropertyListError(.unsupported("null"), at: at)
            default: throw malformed(hex("an unknown object marker", marker), at: at)
            }
        case 0x1:
            let exponent = Int(marker & 0x0F)
            guard exponent <= 4 else { throw malformed(hex("an integer of unknown size", marker), at: at) }
            let size = 1 << exponent
            try need(size, at: at + 1, for: "an integer")
            if size == 16 {
                // 128-bit integers are written for values above Int64.max; only the low half is kept.
                let high = Self.uint(bytes, at: at + 1, size: 8)
                let low = Self.uint(bytes, at: at + 9, size: 8)
                guard high == 0, low <= UInt64(Int64.max) else {
                    throw malformed("an integer beyond 64 bits", at: at)
                }
                return .integer(Int64(low))
            }
            let v = Self.uint(bytes, at: at + 1, size: size)
            // 1, 2 and 4-byte integers are unsigned; the 8-byte form is two's complement.
            return .integer(size == 8 ? Int64(bitPattern: v) : Int64(v))
        case 0x2:
            switch marker & 0x0F {
            case 2:
                try need(4, at: at + 1, for: "a real")
                return .real(Double(Float(bitPattern: UInt32(Self.uint(bytes, at: at + 1, size: 4)))))
            case 3:
                try need(8, at: at + 1, for: "a real")
                return .real(Double(bitPattern: Self.uint(bytes, at: at + 1, size: 8)))
            default: throw malformed(hex("a real of unknown size", marker), at: at)
            }
        case 0x3:
            guard marker == 0x33 else { throw malformed(hex("a date of unknown size", marker), at: at) }
            try need(8, at: at + 1, for: "a date")
            return .date(Double(bitPattern: Self.uint(bytes, at: at + 1, size: 8)) + Self.referenceDate)
        case 0x4:
            let (n, start) = try length(marker, at: at)
            try need(n, at: start, for: "data")
            try produce(n, at: at)
            return .data(Array(bytes[start..<(start + n)]))
        case 0x5:
            let (n, start) = try length(marker, at: at)
            try need(n, at: start, for: "a string")
            try produce(n, at: at)
            let slice = bytes[start..<(start + n)]
            // Apple decodes this form as ASCII and fails on any other byte.
            guard slice.allSatisfy({ $0 < 0x80 }) else {
                throw malformed("an ASCII string holds a byte above 0x7F", at: at)
            }
            return .string(String(decoding: slice, as: UTF8.self))
        case 0x6:
            let (n, start) = try length(marker, at: at)
            guard n <= bytes.count / 2 else { throw malformed("a UTF-16 string runs past the object area", at: at) }
            try need(2 * n, at: start, for: "a UTF-16 string")
            try produce(2 * n, at: at)
            var units: [UInt16] = []
            units.reserveCapacity(n)
            for k in 0..<n { units.append(UInt16(Self.uint(bytes, at: start + 2 * k, size: 2))) }
            guard let s = String(validating: units, as: UTF16.self) else {
                throw malformed("a UTF-16 string with an unpaired surrogate", at: at)
            }
            return .string(s)
        case 0x8: throw PropertyListError(.unsupported("a UID (keyed-archive reference)"), at: at)
        case 0xA, 0xD:
            guard depth < limits.maximumDepth else {
                throw PropertyListError(.tooDeep(limit: limits.maximumDepth), at: at)
            }
            let isDictionary = marker >> 4 == 0xD
            let (n, start) = try length(marker, at: at)
            let refs = isDictionary ? 2 * n : n
            guard refs <= bytes.count else { throw malformed("a container larger than the file", at: at) }
            try need(refs * referenceSize, at: start, for: isDictionary ? "a dictionary" : "an array")
            guard open.insert(index).inserted else { throw PropertyListError(.referenceCycle(object: index), at: at) }
            defer { open.remove(index) }
            func ref(_ k: Int) throws(PropertyListError) -> Int {
                let r = Self.uint(bytes, at: start + k * referenceSize, size: referenceSize)
                guard r < UInt64(objectCount) else {
                    throw malformed("a reference to object \(r) of \(objectCount)", at: start + k * referenceSize)
                }
                return Int(r)
            }
            if !isDictionary {
                var items: [PropertyListValue] = []
                items.reserveCapacity(n)
                for k in 0..<n { items.append(try object(try ref(k), depth: depth + 1)) }
                return .array(items)
            }
            var entries: [PropertyListEntry] = []
            entries.reserveCapacity(n)
            for k in 0..<n {
                let keyIndex = try ref(k)
                guard case .string(let key) = try object(keyIndex, depth: depth + 1) else {
                    throw malformed("a dictionary key that is not a string", at: try offset(of: keyIndex))
                }
                entries.append(PropertyListEntry(key: key, value: try object(try ref(n + k), depth: depth + 1)))
            }
            return .dictionary(entries)
        case 0xC: throw PropertyListError(.unsupported("a set"), at: at)
        default: throw malformed(hex("an unknown object marker", marker), at: at)
        }
    }

    /// Charges `n` bytes of string or data to the output budget (four times the input limit).
    private mutating func produce(_ n: Int, at: Int) throws(PropertyListError) {
        produced += n
        let limit = limits.maximumBytes * 4
        guard produced <= limit else { throw PropertyListError(.expandsTooFar(limit: limit), at: at) }
    }

    private func hex(_ what: String, _ marker: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "\(what) (0x\(digits[Int(marker >> 4)])\(digits[Int(marker & 0x0F)]))"
    }
}
