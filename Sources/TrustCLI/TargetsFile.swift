import CommandLineSpec
import TrustSupport

/// Reads a `--targets` file: one target per line in any form `check` takes, optionally named by a
/// label (`NAME=TARGET`) and followed by per-line options; blank lines and `#` comments are
/// skipped (D210, D291).
enum TargetsFile {
    /// The longest label a line may give its target.
    static let maximumLabelLength = 64

    /// The items of the file, each with `base`'s options followed by its line's own. Every error
    /// names the file and line and quotes at most a few hundred bytes of it.
    /// - Parameters:
    ///   - bytes: The file's contents, already charged to the run's input allowance.
    ///   - path: The file's name, for messages.
    ///   - base: The command line's options, which every line starts from.
    ///   - limit: The most targets the file may name.
    static func parse(_ bytes: [UInt8], path: String, base: ParsedArguments, limit: Int) throws(UsageError)
        -> [FleetCheck.Item]
    {
        let name = InputExcerpt.quote(path)
        var items: [FleetCheck.Item] = []
        // The checks the lines come to with their --connect-to lists, counted line by line so
        // that a list of millions is refused before any of it is expanded (D323).
        var checks = 0
        // Split on the bytes: Swift reads "\r\n" as one Character, so a split of the text on
        // "\n" would never split a CRLF file (D323). LF, CRLF and a lone CR each end a line.
        // Bounded: the file is within the input allowance, and targets stop at `limit`.
        for (index, range) in lineRanges(bytes).enumerated() {
            let origin = "\(name):\(index + 1): "
            guard let line = String(validating: bytes[range], as: UTF8.self) else {
                throw UsageError(message: origin + "the --targets file is not UTF-8 text")
            }
            guard let words = self.words(Substring(line), limit: maximumWords) else {
                throw UsageError(
                    message: origin
                        + "more than \(maximumWords) words on one line; a line is a target and its options")
            }
            guard let first = words.first else { continue }
            if first.hasPrefix("-") {
                throw UsageError(
                    message: origin + "a line starts with its target, not an option: \(InputExcerpt.quote(line))")
            }
            let (label, target) = try labelled(first, origin: origin)
            let options = Array(words.dropFirst())
            let outcome: ParseOutcome
            do {
                outcome = try CheckCommand.spec.parse(options)
            } catch {
                throw UsageError(message: origin + InputExcerpt.quote(error.message, limit: 300))
            }
            guard case .run(let parsed) = outcome else {
                throw UsageError(message: origin + "--help and --version have no place in a --targets file")
            }
            if let extra = parsed.positionals.first {
                throw UsageError(
                    message: origin
                        + "one target per line; \(InputExcerpt.quote(extra)) follows \(InputExcerpt.quote(target))")
            }
            if let other = parsed.occurrences.first(where: { !FleetCheck.lineOptions.contains($0.name) }) {
                throw UsageError(
                    message: origin
                        + "--\(other.name) applies to the whole run, not to one line; give it on the command line")
            }
            if items.count == limit {
                throw UsageError(message: origin + "more than \(limit) targets; split the file")
            }
            var arguments = base
            arguments.positionals = [target]
            arguments.occurrences += parsed.occurrences
            checks += FleetCheck.addressCount(arguments.value("connect-to"))
            if checks > limit {
                throw UsageError(
                    message: origin
                        + "more than \(limit) checks (targets times --connect-to addresses); split the file")
            }
            items.append(FleetCheck.Item(label: label ?? target, origin: origin, arguments: arguments))
        }
        return items
    }

    /// A line's first word split into its label and its target: `NAME=TARGET` names the target,
    /// anything else is the target alone. A word whose text before the first `=` holds a `:` or
    /// a `/` is a URL with a query (`https://host/?a=b`), not a label.
    static func labelled(_ word: String, origin: String) throws(UsageError) -> (label: String?, target: String) {
        guard let eq = word.firstIndex(of: "=") else { return (nil, word) }
        let name = word[..<eq]
        if name.contains(":") || name.contains("/") { return (nil, word) }
        let target = String(word[word.index(after: eq)...])
        let allowed = name.unicodeScalars.allSatisfy { c in
            (c >= "a" && c <= "z") || (c >= "A" && c <= "Z") || (c >= "0" && c <= "9") || c == "-" || c == "_"
                || c == "."
        }
        guard !name.isEmpty, name.count <= maximumLabelLength, allowed else {
            throw UsageError(
                message: origin
                    + "\(InputExcerpt.quote(String(name))) is no label: a label (NAME=TARGET) is 1 to \(maximumLabelLength) letters, digits, '-', '_' or '.'"
            )
        }
        guard !target.isEmpty, !target.hasPrefix("-") else {
            throw UsageError(message: origin + "the label \(name) names no target: write \(name)=host:port")
        }
        return (String(name), target)
    }

    /// The most words a line may have: a target and its options, each option repeatable (--pin),
    /// come nowhere near it; a line of millions of words is refused before they are all made.
    static let maximumWords = 256

    /// The byte ranges of the file's lines, without their ends: LF, CRLF and a lone CR each end
    /// a line (CRLF once), so a file saved on any system reads the same.
    static func lineRanges(_ bytes: [UInt8]) -> [Range<Int>] {
        var ranges: [Range<Int>] = []
        var start = 0
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b == 0x0A || b == 0x0D {
                ranges.append(start..<i)
                if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A { i += 1 }
                start = i + 1
            }
            i += 1
        }
        if start < bytes.count { ranges.append(start..<bytes.count) }
        return ranges
    }

    /// The words of a line up to a `#` that starts a word, split at spaces and tabs; nil when
    /// there are more than `limit` of them (counted while splitting, so a hostile line costs no
    /// more than `limit` words).
    static func words(_ line: Substring, limit: Int = maximumWords) -> [String]? {
        var words: [String] = []
        var rest = line[...]
        while true {
            rest = rest.drop { $0 == " " || $0 == "\t" || $0 == "\r" }
            guard !rest.isEmpty else { break }
            let word = rest.prefix { $0 != " " && $0 != "\t" && $0 != "\r" }
            if word.hasPrefix("#") { break }
            if words.count == limit { return nil }
            words.append(String(word))
            rest = rest[word.endIndex...]
        }
        return words
    }
}
