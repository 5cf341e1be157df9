// Finds the error codes and their context in text a developer pasted: Xcode's console, an NSError
// description, a log line, or codes typed by hand.

/// What `trustx explain` found in its input: the codes in the order they first appear, and what
/// the surrounding lines say about them.
package struct ExplainInput {
    /// One code as it appeared: a number, or a constant's name.
    enum Mention: Hashable {
        /// A number: `-1202`, `Code=-1200`, `_kCFStreamErrorCodeKey=-9802`.
        case number(Int)
        /// The stream error of Xcode's `[3:-9813]` (domain 3 is kCFStreamErrorDomainSSL).
        case streamError(Int)
        /// A constant's name: `errSecHostNameMismatch`, `NSURLErrorCancelled`, `kCFURLErrorTimedOut`.
        case name(String)
        /// An Apple check key of trustd's failure line (`Trust evaluate failure: [leaf SSLHostname]`)
        /// and the OSStatus that check gives.
        case check(String, Int)
    }

    /// The mentions, each once, in order of first appearance, at most `ExplainScanner.maximumCodes`.
    var mentions: [Mention] = []
    /// How many further distinct mentions were left out.
    var leftOut = 0
    /// The host of the first `https://` or `http://` URL (NSErrorFailingURLKey and the like), with
    /// its port when it names one.
    var host: String?
    /// Whether the URL was `http://`.
    var cleartext = false
    /// Console lines recognised, with what they say (the alert's description for BoringSSL's).
    var notes: [String] = []
}

/// The scanner: one pass over the bytes, every loop bounded by the input's length.
package enum ExplainScanner {
    /// The most codes one explain reports; a log with more is summarised by its first ones.
    static let maximumCodes = 32
    /// The longest constant name or host read.
    static let maximumWord = 128
    /// The most BoringSSL alert lines read (each up to 512 bytes): a paste of millions must not
    /// cost millions of line reads, and the notes keep room for the other lines recognised.
    static let maximumAlertLines = 4
    /// The first bytes of the words the scan reads: e(rr...), N(SURLError...), k(CFURLError...),
    /// h(ttp...), b(oringssl...).
    static let wordStarts: Set<UInt8> = Set("eNkhb".utf8)

    package static func scan(_ bytes: [UInt8]) -> ExplainInput {
        var input = ExplainInput()
        var seen = Set<ExplainInput.Mention>()
        var numbers = Set<Int>()
        func add(_ mention: ExplainInput.Mention) {
            // `-1200 [3:-9836]` and `_kCFStreamErrorCodeKey=-9836` are one code, reported once.
            switch mention {
            case .number(let n), .streamError(let n), .check(_, let n):
                guard numbers.insert(n).inserted else { return }
            case .name: break
            }
            guard seen.insert(mention).inserted else { return }
            if input.mentions.count < maximumCodes {
                input.mentions.append(mention)
            } else {
                input.leftOut += 1
            }
            // A flood of distinct codes must not grow the set without bound either.
            if seen.count > maximumCodes * 64 {
                seen.removeAll(keepingCapacity: true)
                numbers.removeAll(keepingCapacity: true)
            }
        }
        var alertLinesRead = 0
        var streamKeysRead = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            let previous: UInt8 = i > 0 ? bytes[i - 1] : 0x20
            if b == UInt8(ascii: "["), let (domain, code, end) = bracketPair(bytes, from: i) {
                // Xcode's `[3:-9813]`: only domain 3 (SSL) carries a SecureTransport code.
                if domain == 3 { add(.streamError(code)) }
                i = end
                continue
            }
            if b == UInt8(ascii: "["), let (keys, end) = failedChecks(bytes, from: i) {
                for key in keys {
                    if let code = ExplainCauses.checkCodes[key] { add(.check(key, code)) }
                }
                i = end
                continue
            }
            // No code starts with 0: `-0700` is a time zone.
            if b == UInt8(ascii: "-"), !isWordByte(previous), previous != UInt8(ascii: "."),
                i + 1 < n, isDigit(bytes[i + 1]), bytes[i + 1] != UInt8(ascii: "0")
            {
                var j = i + 1
                var value = 0
                while j < n, isDigit(bytes[j]), j - i <= 7 {
                    value = value * 10 + Int(bytes[j] - 0x30)
                    j += 1
                }
                let digits = j - i - 1
                // Three to six digits and not a decimal: -999 to -999999 covers every family
                // (-1xxx, -98xx, -25xxx, -67xxx) without taking dates' or offsets' fragments.
                let decimal = j < n && (bytes[j] == UInt8(ascii: ".") && j + 1 < n && isDigit(bytes[j + 1]))
                if (3...6).contains(digits), !(j < n && isDigit(bytes[j])), !decimal {
                    // `_kCFStreamErrorCodeKey=-2102` beside `_kCFStreamErrorDomainKey=4` is an HTTP
                    // stream error, no code of Apple's trust headers; with domain 3 it is SSL's.
                    if endsWith(bytes, at: i, streamCodeKey) {
                        // Past the first keys their lines are not read again, and their codes
                        // are left out rather than taken for Security's.
                        guard streamKeysRead < maximumCodes else {
                            i = j
                            continue
                        }
                        streamKeysRead += 1
                        switch streamDomain(bytes, around: i) {
                        case 3?, nil: add(.streamError(-value))
                        case let other?:
                            note(
                                &input,
                                "_kCFStreamErrorCodeKey=\(-value) is in CFStream error domain \(other), not SSL (3): not a TLS code."
                            )
                        }
                    } else {
                        add(.number(-value))
                    }
                }
                i = j
                continue
            }
            if isLetter(b), !isWordByte(previous) {
                var j = i
                while j < n, isWordByte(bytes[j]), j - i < maximumWord { j += 1 }
                // Only words starting as a name, a URL or BoringSSL's function can matter: no
                // String is made for the others.
                guard wordStarts.contains(b) else {
                    while j < n, isWordByte(bytes[j]) { j += 1 }
                    i = j
                    continue
                }
                let word = String(decoding: bytes[i..<j], as: UTF8.self)
                if word.hasPrefix("errSec") || word.hasPrefix("errSSL") || word.hasPrefix("NSURLError")
                    || word.hasPrefix("kCFURLError")
                {
                    // Names of the families that are not codes: the domain and the userInfo keys.
                    if ![
                        "NSURLErrorDomain", "NSURLErrorFailingURLErrorKey", "NSURLErrorFailingURLStringErrorKey",
                        "NSURLErrorFailingURLPeerTrustErrorKey", "NSURLErrorKey",
                    ].contains(word) {
                        add(.name(word))
                    }
                } else if word == "https" || word == "http", input.host == nil, let host = urlHost(bytes, from: j) {
                    input.host = host
                    input.cleartext = word == "http"
                } else if word == "boringssl_context_handle_fatal_alert", alertLinesRead < maximumAlertLines {
                    alertLinesRead += 1
                    note(&input, alertNote(bytes, from: j))
                }
                while j < n, isWordByte(bytes[j]) { j += 1 }
                i = j
                continue
            }
            i += 1
        }
        for (marker, meaning) in markers where contains(bytes, marker) {
            note(&input, meaning)
        }
        return input
    }

    /// Console phrases and what they tell.
    static let markers: [(String, String)] = [
        (
            "HTTP load failed",
            "\"HTTP load failed\" is CFNetwork's line for the task: the first code is the URLError, the bracketed pair the stream error (domain 3 is SSL)."
        ),
        (
            "ATS failed system trust",
            "\"ATS failed system trust\": App Transport Security's own evaluation of the server's chain (SecTrust) failed; the reason is the trust failure, not an ATS exception."
        ),
    ]

    static func note(_ input: inout ExplainInput, _ text: String) {
        if input.notes.count < 8, !input.notes.contains(text) { input.notes.append(text) }
    }

    /// BoringSSL's fatal alert line: who sent it and its description, read from the same line.
    static func alertNote(_ bytes: [UInt8], from start: Int) -> String {
        var end = start
        while end < bytes.count, bytes[end] != 0x0A, end - start < 512 { end += 1 }
        let line = Array(bytes[start..<end])
        let sent =
            contains(line, "write alert")
            ? "this client sent" : contains(line, "read alert") ? "the server sent" : "a peer sent"
        var description = ""
        if let at = firstIndex(of: "description: ", in: line) {
            let rest = line[(at + "description: ".utf8.count)...].prefix { $0 != 0x0D }.prefix(80)
            description = String(decoding: rest, as: UTF8.self)
        }
        let what = description.isEmpty ? "" : " (\(description))"
        return
            "boringssl_context_handle_fatal_alert: \(sent) a fatal TLS alert\(what); a client that rejects the server's certificate sends one after its evaluation fails."
    }

    /// `[D:-N]` at `start`: the domain, the code and the index after `]`.
    static func bracketPair(_ bytes: [UInt8], from start: Int) -> (Int, Int, Int)? {
        var j = start + 1
        var domain = 0
        while j < bytes.count, isDigit(bytes[j]), j - start <= 3 {
            domain = domain * 10 + Int(bytes[j] - 0x30)
            j += 1
        }
        guard j > start + 1, j + 2 < bytes.count, bytes[j] == UInt8(ascii: ":") else { return nil }
        j += 1
        let negative = bytes[j] == UInt8(ascii: "-")
        if negative { j += 1 }
        let digitsStart = j
        var code = 0
        while j < bytes.count, isDigit(bytes[j]), j - digitsStart < 7 {
            code = code * 10 + Int(bytes[j] - 0x30)
            j += 1
        }
        guard j > digitsStart, j < bytes.count, bytes[j] == UInt8(ascii: "]") else { return nil }
        return (domain, negative ? -code : code, j + 1)
    }

    static let streamCodeKey = Array("_kCFStreamErrorCodeKey=".utf8)
    static let streamDomainKey = "_kCFStreamErrorDomainKey="

    /// Whether the bytes just before `index` are `suffix`.
    static func endsWith(_ bytes: [UInt8], at index: Int, _ suffix: [UInt8]) -> Bool {
        index >= suffix.count && bytes[(index - suffix.count)..<index].elementsEqual(suffix)
    }

    /// The value of `_kCFStreamErrorDomainKey=` on the line around `index` (at most 1 KiB either
    /// side), nil when the line has none.
    static func streamDomain(_ bytes: [UInt8], around index: Int) -> Int? {
        var start = index
        while start > 0, bytes[start - 1] != 0x0A, index - start < 1024 { start -= 1 }
        var end = index
        while end < bytes.count, bytes[end] != 0x0A, end - index < 1024 { end += 1 }
        let line = Array(bytes[start..<end])
        guard let at = firstIndex(of: streamDomainKey, in: line) else { return nil }
        let digits = line[(at + streamDomainKey.utf8.count)...].prefix { isDigit($0) }.prefix(4)
        return digits.isEmpty ? nil : digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// trustd's `[leaf SSLHostname]`, `[ca1 TemporalValidity AnchorTrusted]`, `[root AnchorTrusted]`
    /// at `start`: the check keys and the index after `]`.
    static func failedChecks(_ bytes: [UInt8], from start: Int) -> ([String], Int)? {
        var end = start + 1
        while end < bytes.count, bytes[end] != UInt8(ascii: "]"), bytes[end] != 0x0A, end - start < 256 { end += 1 }
        guard end < bytes.count, bytes[end] == UInt8(ascii: "]") else { return nil }
        let words = bytes[(start + 1)..<end].split(separator: 0x20).map { String(decoding: $0, as: UTF8.self) }
        guard let position = words.first, words.count > 1,
            position == "leaf" || position == "root"
                || (position.hasPrefix("ca") && position.utf8.dropFirst(2).allSatisfy(isDigit))
        else { return nil }
        return (Array(words.dropFirst()), end + 1)
    }

    /// The host (and `:port`) after `://`, when `from` points at `://`.
    static func urlHost(_ bytes: [UInt8], from start: Int) -> String? {
        guard start + 3 < bytes.count, bytes[start] == UInt8(ascii: ":"), bytes[start + 1] == UInt8(ascii: "/"),
            bytes[start + 2] == UInt8(ascii: "/")
        else { return nil }
        var j = start + 3
        while j < bytes.count, j - start - 3 < maximumWord,
            isWordByte(bytes[j]) || bytes[j] == UInt8(ascii: ".") || bytes[j] == UInt8(ascii: "-")
                || bytes[j] == UInt8(ascii: ":")
        {
            j += 1
        }
        let host = String(decoding: bytes[(start + 3)..<j], as: UTF8.self)
        let trimmed = host.hasSuffix(":") ? String(host.dropLast()) : host
        return trimmed.isEmpty ? nil : trimmed
    }

    static func contains(_ bytes: [UInt8], _ marker: String) -> Bool { firstIndex(of: marker, in: bytes) != nil }

    /// Where `marker` first starts in `bytes` (bytes, not String matching, which would bring the
    /// string-processing runtime into start-up).
    static func firstIndex(of marker: String, in bytes: [UInt8]) -> Int? {
        let needle = Array(marker.utf8)
        guard let first = needle.first, bytes.count >= needle.count else { return nil }
        var i = 0
        while i <= bytes.count - needle.count {
            if bytes[i] == first, bytes[i..<(i + needle.count)].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }
    static func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
    static func isWordByte(_ b: UInt8) -> Bool { isDigit(b) || isLetter(b) || b == UInt8(ascii: "_") }
}
