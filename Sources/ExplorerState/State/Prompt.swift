import TrustCore
import TrustSupport

/// A line of text the user is typing: a host, a time, a pin, a path or a target.
public struct Prompt: Hashable, Sendable {
    /// What is being typed.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        /// The host the SSL policy checks (`h`).
        case host
        /// The evaluation time (`t`).
        case time
        /// An SPKI pin (`N`).
        case pin
        /// A file of anchors (`F`).
        case anchorFile
        /// An app's Info.plist for ATS and NSPinnedDomains (`L`, or `i` with none loaded).
        case atsPlist
        /// Where to write the selected certificate (`w`).
        case writeCertificate
        /// Where to export the report (`x`).
        case exportReport
        /// Where to write the chain to serve (`S`).
        case writeServedChain
        /// What to export the settings as (`X`).
        case exportCode
        /// A new target (`c`).
        case connect
        /// Text to find in the focused pane (`/`).
        case search
        /// A target to select by number or name (`:`).
        case jump
        /// An error code or a line from Xcode's console to explain (`!`).
        case explain

        /// The label before the text.
        public var label: String {
            switch self {
            case .host: "Host to check"
            case .time: "Evaluate at"
            case .pin: "Pin"
            case .anchorFile: "Anchors from file"
            case .atsPlist: "Info.plist"
            case .writeCertificate: "Write PEM to"
            case .exportReport: "Export report to"
            case .writeServedChain: "Write the chain to serve to"
            case .exportCode: "Export settings as"
            case .connect: "Connect to"
            case .search: "Find"
            case .jump: "Go to"
            case .explain: "Explain"
            }
        }

        /// What the text may be, shown while it is empty or invalid.
        public var hint: String {
            switch self {
            case .host: "a DNS name or IP address; Tab completes from the leaf; empty: no host (SSL nil)"
            case .time: "2027-01-01, 2027-01-01T12:00:00Z, or -90d / +2w / +6m / +1y from now"
            case .pin: "sha256//BASE64 of a SubjectPublicKeyInfo"
            case .anchorFile: "a PEM, DER, PKCS#7 or PKCS#12 file; Tab completes"
            case .atsPlist: "an app's Info.plist (XML or binary); Tab completes; empty: ATS's defaults"
            case .writeCertificate: "a new file; Tab completes"
            case .exportReport: ".json for JSON, .md for Markdown, else text; a new file; Tab completes"
            case .writeServedChain:
                "a new file, for the server; written once it alone evaluates as served; Tab completes"
            case .exportCode: "swift (a URLSessionDelegate), plist (NSPinnedDomains), curl or openssl; Tab completes"
            case .connect: "host, host:port, https://host:port/ or smtp://host"
            case .search: "text in the focused pane; n next, N previous, Esc clears"
            case .jump: "a target's number or name; Tab completes the name"
            case .explain: "a code or a console line (-1202 [3:-9813], errSecNotTrusted); empty: this verdict's codes"
            }
        }

        /// Whether Tab completes file paths.
        package var completesPaths: Bool {
            self == .anchorFile || self == .atsPlist || self == .writeCertificate || self == .exportReport
                || self == .writeServedChain
        }

        /// Whether the verdict is previewed while typing.
        package var previews: Bool { self == .host || self == .time || self == .pin }
    }

    /// What is being typed.
    public var kind: Kind
    /// The text so far.
    public var text: String
    /// The history entry recalled with Up/Down, nil while editing fresh text.
    public var historyIndex: Int?
    /// Candidates the last Tab found, when there was more than one.
    public var completions: [String] = []
    /// The verdict the typed value would give, when it is valid and has been evaluated.
    public var preview: Outcome?
    /// Whether the text is the current value, offered for editing: the first character typed
    /// replaces it, as in a selected text field.
    public var prefilled = false

    /// Creates a prompt.
    public init(_ kind: Kind, text: String = "") {
        self.kind = kind
        self.text = text
        self.prefilled = !text.isEmpty
    }

    /// The most a prompt holds: a host name is at most 253 characters, a path 4096.
    static let maximumLength = 4096
}

/// Parsing of what is typed at the time prompt.
public enum TimeInput {
    /// Parses RFC 3339 (`2027-01-01T00:00:00Z`), a date (`2027-01-01`, midnight UTC), or a shift
    /// from `now` (`-90d`, `+2w`, `+12h`; `+1m` and `+1y` are calendar months and years, the same
    /// day of the month and time of day, the last day of a shorter month).
    /// - Parameters:
    ///   - text: What was typed.
    ///   - now: The session's "now".
    /// - Returns: The time, or nil when the text is none of these.
    public static func parse(_ text: String, now: Timestamp) -> Timestamp? {
        let t = text.trimmingSpaces()
        if let ts = Timestamp(rfc3339: t) { return ts }
        let parts = t.split(separator: "-", omittingEmptySubsequences: false)
        if parts.count == 3, parts[0].count == 4, parts[1].count == 2, parts[2].count == 2,
            let y = Int(parts[0]), let m = Int(parts[1]), let d = Int(parts[2])
        {
            return Timestamp(year: y, month: m, day: d)
        }
        guard let sign = t.first, sign == "+" || sign == "-", let unit = t.last, t.count >= 3,
            let n = Int64(t.dropFirst().dropLast()), n <= 100_000
        else { return nil }
        let signed = sign == "-" ? -n : n
        let seconds: Int64
        switch unit {
        case "h": seconds = 3600
        case "d": seconds = 86_400
        case "w": seconds = 7 * 86_400
        case "m": return addingMonths(signed, to: now)
        case "y": return addingMonths(signed * 12, to: now)
        default: return nil
        }
        return now.adding(seconds: signed * seconds)
    }

    /// `time` moved by whole calendar months, keeping the day (clamped to the month's last day)
    /// and the time of day; nil outside the years 0 to 9999.
    static func addingMonths(_ months: Int64, to time: Timestamp) -> Timestamp? {
        let text = Array(time.rfc3339.utf8)  // YYYY-MM-DDTHH:MM:SSZ
        func field(_ from: Int, _ count: Int) -> Int {
            text[from..<(from + count)].reduce(0) { $0 * 10 + Int($1 - 0x30) }
        }
        guard text.count == 20 else { return nil }
        let index = Int64(field(0, 4)) * 12 + Int64(field(5, 2) - 1) + months
        guard index >= 0, index < 10_000 * 12 else { return nil }
        let year = Int(index / 12)
        let month = Int(index % 12) + 1
        var day = field(8, 2)
        while day > 28 && Timestamp(year: year, month: month, day: day) == nil { day -= 1 }
        return Timestamp(
            year: year, month: month, day: day, hour: field(11, 2), minute: field(14, 2), second: field(17, 2))
    }
}

extension String {
    /// Without leading and trailing spaces.
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
