/// A point in time as whole seconds since 1970-01-01T00:00:00Z (UTC, no leap seconds), the
/// resolution X.509 validity has. Evaluation time is always passed in as one of these.
public struct Timestamp: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// Seconds since the Unix epoch.
    public var secondsSinceEpoch: Int64

    /// Creates a timestamp from seconds since the Unix epoch.
    public init(secondsSinceEpoch: Int64) { self.secondsSinceEpoch = secondsSinceEpoch }

    /// Creates a timestamp from a UTC calendar date; nil when the fields are out of range.
    public init?(year: Int, month: Int, day: Int, hour: Int = 0, minute: Int = 0, second: Int = 0) {
        guard (1...12).contains(month), day >= 1, day <= Timestamp.daysIn(month: month, year: year),
            (0...23).contains(hour), (0...59).contains(minute), (0...59).contains(second),
            (0...9999).contains(year)
        else { return nil }
        let days = Timestamp.daysFromCivil(year: year, month: month, day: day)
        secondsSinceEpoch = days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    /// Parses RFC 3339 (`2027-01-01T00:00:00Z`, `+hh:mm` offsets, fractions ignored) or a bare date.
    public init?(rfc3339 text: String) {
        let b = Array(text.utf8)
        func num(_ i: Int, _ n: Int) -> Int? {
            guard i + n <= b.count else { return nil }
            var v = 0
            for k in i..<(i + n) {
                guard b[k] >= 0x30, b[k] <= 0x39 else { return nil }
                v = v * 10 + Int(b[k] - 0x30)
            }
            return v
        }
        guard b.count >= 10, let y = num(0, 4), b[4] == 0x2D, let mo = num(5, 2), b[7] == 0x2D,
            let d = num(8, 2)
        else { return nil }
        if b.count == 10 {
            self.init(year: y, month: mo, day: d)
            return
        }
        guard b.count >= 20, b[10] == 0x54 || b[10] == 0x74 || b[10] == 0x20, let h = num(11, 2), b[13] == 0x3A,
            let mi = num(14, 2), b[16] == 0x3A, let s = num(17, 2)
        else { return nil }
        var i = 19
        if b[i] == 0x2E {
            i += 1
            while i < b.count, b[i] >= 0x30, b[i] <= 0x39 { i += 1 }
        }
        guard i < b.count else { return nil }
        var offset = 0
        if b[i] == 0x5A || b[i] == 0x7A {
            guard i + 1 == b.count else { return nil }
        } else if b[i] == 0x2B || b[i] == 0x2D {
            guard i + 6 == b.count, let oh = num(i + 1, 2), b[i + 3] == 0x3A, let om = num(i + 4, 2) else {
                return nil
            }
            offset = (oh * 3600 + om * 60) * (b[i] == 0x2D ? -1 : 1)
        } else {
            return nil
        }
        guard let base = Timestamp(year: y, month: mo, day: d, hour: h, minute: mi, second: s) else { return nil }
        self.init(secondsSinceEpoch: base.secondsSinceEpoch - Int64(offset))
    }

    /// RFC 3339 in UTC, e.g. `2027-01-01T00:00:00Z`.
    public var rfc3339: String {
        let (y, mo, d) = Timestamp.civilFromDays(floorDiv(secondsSinceEpoch, 86_400))
        let rem = secondsSinceEpoch - floorDiv(secondsSinceEpoch, 86_400) * 86_400
        func pad(_ v: Int64, _ width: Int) -> String {
            let s = String(v)
            return String(repeating: "0", count: max(0, width - s.count)) + s
        }
        return
            "\(pad(y, 4))-\(pad(mo, 2))-\(pad(d, 2))T\(pad(rem / 3600, 2)):\(pad(rem / 60 % 60, 2)):\(pad(rem % 60, 2))Z"
    }

    /// The RFC 3339 form.
    public var description: String { rfc3339 }

    /// This time plus `seconds`.
    public func adding(seconds: Int64) -> Timestamp {
        Timestamp(secondsSinceEpoch: secondsSinceEpoch &+ seconds)
    }

    /// Orders timestamps chronologically.
    public static func < (a: Timestamp, b: Timestamp) -> Bool { a.secondsSinceEpoch < b.secondsSinceEpoch }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    // Howard Hinnant's days_from_civil / civil_from_days.
    static func daysFromCivil(year: Int, month: Int, day: Int) -> Int64 {
        let y = Int64(month <= 2 ? year - 1 : year)
        let era = floorDiv(y, 400)
        let yoe = y - era * 400
        let m = Int64(month)
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + Int64(day) - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    package static func civilFromDays(_ days: Int64) -> (Int64, Int64, Int64) {
        let z = days + 719_468
        let era = floorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }
}

package func floorDiv(_ a: Int64, _ b: Int64) -> Int64 {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}
