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
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw UsageError(message: "\(name): the --targets file is not UTF-8 text")
        }
        var items: [FleetCheck.Item] = []
        // Bounded: the file is within the input allowance, and targets stop at `limit`.
        for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let origin = "\(name):\(index + 1): "
            let words = self.words(line)
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

    /// The words of a line up to a `#` that starts a word, split at spaces and tabs (a carriage
    /// return of a CRLF file counts as a space).
    static func words(_ line: Substring) -> [String] {
        var words: [String] = []
        for word in line.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
            if word.hasPrefix("#") { break }
            words.append(String(word))
        }
        return words
    }
}
