import TrustSupport

/// What changed for one address of a watched target between two rounds.
public enum WatchChangeKind: String, Hashable, Sendable, CaseIterable {
    /// The first round's evaluation of an address.
    case firstEvaluation = "first-evaluation"
    /// Another leaf certificate with the same public key (a renewal that kept the key).
    case newLeafSameKey = "new-leaf-same-key"
    /// Another leaf certificate with another public key: a leaf pin breaks here.
    case newLeafNewKey = "new-leaf-new-key"
    /// The same leaf with other certificates after it (intermediates added, removed or replaced).
    case newChain = "new-chain"
    /// Trusted became not trusted or back, or the codes of a refusal changed.
    case verdictFlipped = "verdict-flipped"
    /// An address the name did not have in the previous round.
    case addressAppeared = "address-appeared"
    /// An address the name no longer has.
    case addressGone = "address-gone"
    /// The connection failed where it had answered, or failed with another message.
    case failure = "failure"
    /// The connection answered again after a failure.
    case recovered = "recovered"
    /// A chain trusted in both rounds that now stops being trusted within `--expires-within`'s
    /// window, and did not in the round before (D466).
    case expiresSoon = "expires-soon"
}

/// One change of one address, with what was seen before and what is seen now.
public struct WatchChange: Hashable, Sendable {
    /// When the change was seen.
    public var time: Timestamp
    /// The target as the user named it.
    public var target: String
    /// The address it concerns; nil for the target as a whole (its name did not resolve).
    public var address: String?
    /// What changed.
    public var kind: WatchChangeKind
    /// The address's outcome before the change; nil for a first evaluation or a new address.
    public var old: WatchOutcome?
    /// The address's outcome after it; nil for an address that is gone.
    public var new: WatchOutcome?

    /// A change.
    /// - Parameters:
    ///   - time: When it was seen.
    ///   - target: The target as named.
    ///   - address: The address, or nil for the whole target.
    ///   - kind: What changed.
    ///   - old: The outcome before.
    ///   - new: The outcome after.
    public init(
        time: Timestamp, target: String, address: String?, kind: WatchChangeKind, old: WatchOutcome?,
        new: WatchOutcome?
    ) {
        self.time = time
        self.target = target
        self.address = address
        self.kind = kind
        self.old = old
        self.new = new
    }

    /// The most bytes of a failure message a change line quotes.
    public static let messageLimit = 200

    /// The change in a few words, such as `new leaf (new key) 3f2a91… -> 9c1b07…` or
    /// `verdict trusted -> not trusted (-67818 / -1202)`; sanitised for a terminal.
    public var summaryText: String {
        let text: String
        switch kind {
        case .firstEvaluation: text = "first evaluation: " + Self.outcomeText(new)
        case .newLeafSameKey, .newLeafNewKey:
            let key = kind == .newLeafSameKey ? "same key" : "new key"
            text =
                "new leaf (\(key)) \(Self.short(old?.summary?.leafSHA256)) -> \(Self.short(new?.summary?.leafSHA256))"
        case .newChain:
            let before = Array(old?.summary?.chainSHA256.dropFirst() ?? [])
            let after = Array(new?.summary?.chainSHA256.dropFirst() ?? [])
            text = "new chain (same leaf): intermediates \(Self.list(before)) -> \(Self.list(after))"
        case .verdictFlipped:
            text = "verdict \(Self.verdictText(old?.summary)) -> \(Self.verdictText(new?.summary))"
        case .addressAppeared: text = "address appeared: " + Self.outcomeText(new)
        case .addressGone: text = "address gone"
        case .failure: text = "failure: " + InputExcerpt.quote(new?.failureMessage ?? "", limit: Self.messageLimit)
        case .recovered: text = new == nil ? "recovered" : "recovered: " + Self.outcomeText(new)
        case .expiresSoon:
            text = "trusted, fails from \(new?.summary?.failsFrom?.rfc3339 ?? "none") (within --expires-within)"
        }
        return TerminalSanitizer.sanitize(text)
    }

    /// The start of a change line: the time in RFC 3339 UTC, the target and the address (unless
    /// it is the target as written), sanitised.
    public var lineHead: String {
        var head = time.rfc3339 + "  " + TerminalSanitizer.sanitize(InputExcerpt.quote(target))
        if let address, address != target { head += " " + TerminalSanitizer.sanitize(InputExcerpt.quote(address)) }
        return head
    }

    /// The changes as text lines, one per address and time: the changes of one address seen at
    /// once share a line, joined by `; `, e.g.
    /// `2026-12-01T03:12:05Z  pool.trustx.test 127.0.0.2  new leaf (new key) 3f2a91… -> 9c1b07…; verdict trusted -> not trusted (-67818 / -1202)`.
    /// - Parameter changes: Changes in the order they were found.
    /// - Returns: The lines, each ending in a newline.
    public static func textLines(_ changes: [WatchChange]) -> [String] {
        var lines: [(head: String, key: WatchChange, parts: [String])] = []
        for change in changes {
            if let last = lines.last, last.key.time == change.time, last.key.target == change.target,
                last.key.address == change.address
            {
                lines[lines.count - 1].parts.append(change.summaryText)
            } else {
                lines.append((change.lineHead, change, [change.summaryText]))
            }
        }
        return lines.map { $0.head + "  " + $0.parts.joined(separator: "; ") + "\n" }
    }

    /// The change as a self-describing JSON object: `event` `change`, `time`, `target`,
    /// `address`, `kind` and the `old` and `new` outcomes (docs/json-report.md).
    public var json: JSONValue {
        .object([
            ("event", .string("change")),
            ("time", .string(time.rfc3339)),
            ("target", .string(target)),
            ("address", .string(address)),
            ("kind", .string(kind.rawValue)),
            ("old", old.map(Self.outcomeJSON) ?? .null),
            ("new", new.map(Self.outcomeJSON) ?? .null),
        ])
    }

    /// The change as one line of JSON, ending in a newline.
    public var jsonLine: String { JSONWriter.serializeLine(json) }

    /// An outcome as JSON: `result` `evaluated` with the summary's fields, or `failed` with the
    /// message.
    public static func outcomeJSON(_ outcome: WatchOutcome) -> JSONValue {
        switch outcome {
        case .failed(let message):
            return .object([("result", .string("failed")), ("error", .string(message))])
        case .evaluated(let s):
            // `failsFrom` only under --expires-within: a watch without it prints what it did (D466).
            let failsFrom: [(String, JSONValue)] = s.failsFrom.map { [("failsFrom", .string($0.rfc3339))] } ?? []
            return .object(
                [
                    ("result", .string("evaluated")),
                    ("trusted", .bool(s.trusted)),
                    ("osstatus", .int(Int(s.osstatus))),
                    ("osstatusName", .string(s.osstatusName)),
                    ("urlError", .int(s.urlError)),
                    ("leafSHA256", .string(s.leafSHA256)),
                    ("leafSPKISHA256", .string(s.leafSPKISHA256)),
                    ("chainSHA256", .array(s.chainSHA256.map { .string($0) })),
                    ("leafNotAfter", .string(s.leafNotAfter?.rfc3339)),
                ] + failsFrom)
        }
    }

    /// The first six hex digits of a digest and an ellipsis, or `none`.
    public static func short(_ digest: String?) -> String {
        guard let digest, !digest.isEmpty else { return "none" }
        return digest.count <= 6 ? digest : String(digest.prefix(6)) + "…"
    }

    static func list(_ digests: [String]) -> String {
        digests.isEmpty ? "none" : digests.map { short($0) }.joined(separator: ",")
    }

    /// `trusted`, or `not trusted (OSSTATUS / URLERROR)`.
    public static func verdictText(_ s: WatchSummary?) -> String {
        guard let s else { return "none" }
        if s.trusted { return "trusted" }
        var codes = "\(s.osstatus)"
        if let u = s.urlError { codes += " / \(u)" }
        return "not trusted (\(codes))"
    }

    static func outcomeText(_ outcome: WatchOutcome?) -> String {
        switch outcome {
        case .evaluated(let s)?: return "\(verdictText(s)), leaf \(short(s.leafSHA256))"
        case .failed(let m)?: return "failed: " + InputExcerpt.quote(m, limit: messageLimit)
        case nil: return "none"
        }
    }
}

extension JSONWriter {
    /// `value` on one line without spaces, then a newline: one record of a JSON Lines stream.
    /// Strings are escaped as `serialize` escapes them, so a line break can only end the record.
    /// - Parameter value: The record.
    /// - Returns: The line.
    public static func serializeLine(_ value: JSONValue) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(1024)
        writeCompact(value, into: &out)
        out.append(0x0A)
        return String(decoding: out, as: UTF8.self)
    }

    static func writeCompact(_ value: JSONValue, into out: inout [UInt8]) {
        switch value {
        case .array(let items):
            out.append(UInt8(ascii: "["))
            for (i, item) in items.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                writeCompact(item, into: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            for (i, (key, item)) in members.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                appendString(key, into: &out)
                out.append(UInt8(ascii: ":"))
                writeCompact(item, into: &out)
            }
            out.append(UInt8(ascii: "}"))
        default:
            // Scalars have no layout of their own.
            write(value, indent: 0, into: &out)
        }
    }
}
