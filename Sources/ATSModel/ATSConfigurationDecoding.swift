import TrustSupport

/// Something in an NSAppTransportSecurity dictionary that Apple's reader would ignore or read
/// otherwise than its author probably meant: kept for reports (and the lint), never fatal.
public struct ATSConfigurationNote: Hashable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Hashable, Sendable {
        /// A key ATS does not know; `suggestion` is the known key it most resembles.
        case unknownKey(suggestion: String?)
        /// A key retired by Apple, which current systems ignore.
        case obsoleteKey
        /// A value of the wrong type, which Apple ignores (the key counts as absent).
        case wrongType(expected: String, found: String)
        /// A number where a boolean belongs: Apple reads it as YES only when it equals 1.
        case numberAsBoolean(readAs: Bool)
        /// An NSExceptionMinimumTLSVersion other than the four exact spellings: ignored.
        case unrecognizedTLSVersion(String)
        /// An entry of NSPinnedLeafIdentities / NSPinnedCAIdentities that can never match.
        case invalidIdentity(String)
        /// NSIncludesSubdomains under NSPinnedDomains is honoured only as a boolean true.
        case pinnedSubdomainsNotBoolean
    }

    /// The keys leading to the value, from NSAppTransportSecurity down.
    public var keyPath: [String]
    /// What is wrong.
    public var problem: Problem

    /// Creates a note.
    public init(keyPath: [String], problem: Problem) {
        self.keyPath = keyPath
        self.problem = problem
    }

    /// `NSAppTransportSecurity.NSExceptionDomains.example.com.NSExceptionMinimumTLSVersion: ...`.
    public var description: String {
        // Keys and values are the file's: each quoted at most a few hundred bytes.
        let path = (["NSAppTransportSecurity"] + keyPath.map { InputExcerpt.quote($0) }).joined(separator: " › ")
        let text: String
        switch problem {
        case .unknownKey(let s?): text = "unknown key, ignored (did you mean \(s)?)"
        case .unknownKey(nil): text = "unknown key, ignored"
        case .obsoleteKey: text = "obsolete key, ignored by current systems"
        case .wrongType(let expected, let found): text = "must be \(expected), found \(found); ignored"
        case .numberAsBoolean(let b):
            text = "a number where a boolean belongs; Apple reads it as \(b ? "YES" : "NO") (YES only for 1)"
        case .unrecognizedTLSVersion(let v):
            text =
                "'\(InputExcerpt.quote(v))' is not one of TLSv1.0, TLSv1.1, TLSv1.2, TLSv1.3 (exact spelling); ignored, so TLS 1.2 stays the minimum"
        case .invalidIdentity(let why): text = "\(why); this identity never matches"
        case .pinnedSubdomainsNotBoolean:
            text = "NSPinnedDomains honours NSIncludesSubdomains only as <true/>; read as NO"
        }
        return "\(path): \(text)"
    }
}

/// Why an Info.plist's ATS configuration cannot be used at all.
public struct ATSConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// One sentence.
    public var description: String
}

extension ATSConfiguration {
    // The keys come from the one table the lint reads too.
    static let globalKeys = ATSKey.names(in: .topLevel)
    static let exceptionKeys = ATSKey.names(in: .exceptionDomain)
    /// Keys of iOS 9's first ATS release, documented once and ignored by current systems.
    static let obsoleteExceptionKeys = Set(ATSKey.obsoleteKeys(in: .exceptionDomain).keys)
    static let pinnedKeys = ATSKey.names(in: .pinnedDomain)
    static let identityKey = ATSKey.names(in: .identity)[0]

    /// Reads NSAppTransportSecurity from a whole Info.plist, or from a dictionary that is itself the
    /// ATS dictionary (one holding an ATS key at its top). An Info.plist without the key gives ATS's
    /// defaults. What Apple would ignore is ignored here too, and kept in `notes`.
    /// - Parameter plist: The property list's top value.
    /// - Returns: The configuration.
    /// - Throws: `ATSConfigurationError` when the top value, or NSAppTransportSecurity, is not a dictionary.
    public static func decode(_ plist: PropertyListValue) throws(ATSConfigurationError) -> ATSConfiguration {
        guard case .dictionary(let top) = plist else {
            throw ATSConfigurationError(description: "the property list's top value is not a dictionary")
        }
        var ats = top
        if let value = plist["NSAppTransportSecurity"] {
            guard case .dictionary(let d) = value else {
                throw ATSConfigurationError(
                    description: "NSAppTransportSecurity is \(typeName(value)), not a dictionary")
            }
            ats = d
        } else if !top.contains(where: { globalKeys.contains($0.key) }) {
            // An Info.plist without the key: ATS's defaults, which is what the app gets.
            ats = []
        }
        var c = ATSConfiguration()
        var notes: [ATSConfigurationNote] = []
        for entry in ats {
            let path = [entry.key]
            switch entry.key {
            case "NSAllowsArbitraryLoads":
                c.allowsArbitraryLoads = boolean(entry.value, path, &notes)
            case "NSAllowsArbitraryLoadsForMedia":
                c.allowsArbitraryLoadsForMedia = boolean(entry.value, path, &notes)
            case "NSAllowsArbitraryLoadsInWebContent":
                c.allowsArbitraryLoadsInWebContent = boolean(entry.value, path, &notes)
            case "NSAllowsLocalNetworking":
                c.allowsLocalNetworking = boolean(entry.value, path, &notes)
            case "NSExceptionDomains":
                guard case .dictionary(let domains) = entry.value else {
                    notes.append(
                        .init(
                            keyPath: path, problem: .wrongType(expected: "a dictionary", found: typeName(entry.value))))
                    continue
                }
                for d in domains {
                    if let e = exceptionDomain(d, path + [d.key], &notes) { c.exceptionDomains.append(e) }
                }
            case "NSPinnedDomains":
                guard case .dictionary(let domains) = entry.value else {
                    notes.append(
                        .init(
                            keyPath: path, problem: .wrongType(expected: "a dictionary", found: typeName(entry.value))))
                    continue
                }
                for d in domains {
                    if let p = pinnedDomain(d, path + [d.key], &notes) { c.pinnedDomains.append(p) }
                }
            default:
                notes.append(.init(keyPath: path, problem: unknown(entry.key, among: globalKeys)))
            }
        }
        c.notes = notes
        return c
    }

    /// `a string`, `an integer`: for notes.
    static func typeName(_ v: PropertyListValue) -> String {
        switch v {
        case .dictionary: "a dictionary"
        case .array: "an array"
        case .string: "a string"
        case .bool: "a boolean"
        case .integer: "an integer"
        case .real: "a real"
        case .date: "a date"
        case .data: "data"
        }
    }

    /// A boolean as Apple's ATS reader takes it: any number (1 is YES, anything else NO); other
    /// types count as absent.
    static func boolean(_ v: PropertyListValue, _ path: [String], _ notes: inout [ATSConfigurationNote]) -> Bool? {
        switch v {
        case .bool(let b): return b
        case .integer(let n):
            notes.append(.init(keyPath: path, problem: .numberAsBoolean(readAs: n == 1)))
            return n == 1
        case .real(let r):
            notes.append(.init(keyPath: path, problem: .numberAsBoolean(readAs: r == 1)))
            return r == 1
        default:
            notes.append(.init(keyPath: path, problem: .wrongType(expected: "a boolean", found: typeName(v))))
            return nil
        }
    }

    /// The keys of a domain entry, or nil with a note when its value is not a dictionary.
    static func dictionary(
        _ entry: PropertyListEntry, _ path: [String], _ notes: inout [ATSConfigurationNote]
    ) -> [PropertyListEntry]? {
        guard case .dictionary(let keys) = entry.value else {
            notes.append(
                .init(keyPath: path, problem: .wrongType(expected: "a dictionary", found: typeName(entry.value))))
            return nil
        }
        return keys
    }

    static func exceptionDomain(
        _ entry: PropertyListEntry, _ path: [String], _ notes: inout [ATSConfigurationNote]
    ) -> ATSExceptionDomain? {
        guard let keys = dictionary(entry, path, &notes) else { return nil }
        var e = ATSExceptionDomain(domain: entry.key)
        for k in keys {
            let p = path + [k.key]
            switch k.key {
            case "NSIncludesSubdomains": e.includesSubdomains = boolean(k.value, p, &notes)
            case "NSExceptionAllowsInsecureHTTPLoads": e.allowsInsecureHTTPLoads = boolean(k.value, p, &notes)
            case "NSExceptionRequiresForwardSecrecy": e.requiresForwardSecrecy = boolean(k.value, p, &notes)
            case "NSRequiresCertificateTransparency":
                e.requiresCertificateTransparency = boolean(k.value, p, &notes)
            case "NSExceptionMinimumTLSVersion":
                guard case .string(let s) = k.value else {
                    notes.append(.init(keyPath: p, problem: .wrongType(expected: "a string", found: typeName(k.value))))
                    continue
                }
                e.minimumTLSVersionText = s
                if e.minimumTLSVersion == nil { notes.append(.init(keyPath: p, problem: .unrecognizedTLSVersion(s))) }
            default:
                if obsoleteExceptionKeys.contains(k.key) {
                    notes.append(.init(keyPath: p, problem: .obsoleteKey))
                } else {
                    notes.append(.init(keyPath: p, problem: unknown(k.key, among: exceptionKeys)))
                }
            }
        }
        return e
    }

    static func pinnedDomain(
        _ entry: PropertyListEntry, _ path: [String], _ notes: inout [ATSConfigurationNote]
    ) -> PinnedDomain? {
        guard let keys = dictionary(entry, path, &notes) else { return nil }
        var d = PinnedDomain(domain: entry.key)
        for k in keys {
            let p = path + [k.key]
            switch k.key {
            case "NSIncludesSubdomains":
                // Apple's pinning code compares the value with kCFBooleanTrue itself.
                if case .bool(let b) = k.value {
                    d.includesSubdomains = b
                } else {
                    notes.append(.init(keyPath: p, problem: .pinnedSubdomainsNotBoolean))
                }
            case "NSPinnedLeafIdentities": d.leafIdentities = identities(k.value, p, &notes)
            case "NSPinnedCAIdentities": d.caIdentities = identities(k.value, p, &notes)
            default: notes.append(.init(keyPath: p, problem: unknown(k.key, among: pinnedKeys)))
            }
        }
        return d
    }

    /// A present identity list: anything but an array of dictionaries with an
    /// `SPKI-SHA256-BASE64` string contributes no usable pin, so the category always fails.
    static func identities(
        _ v: PropertyListValue, _ path: [String], _ notes: inout [ATSConfigurationNote]
    ) -> [PinnedIdentity] {
        guard case .array(let items) = v else {
            notes.append(.init(keyPath: path, problem: .wrongType(expected: "an array", found: typeName(v))))
            return []
        }
        var out: [PinnedIdentity] = []
        for (i, item) in items.enumerated() {
            let p = path + ["[\(i)]"]
            guard case .string(let text)? = item[identityKey] else {
                let why =
                    if case .dictionary = item { "no SPKI-SHA256-BASE64 string" } else {
                        "\(typeName(item)), not a dictionary"
                    }
                notes.append(.init(keyPath: p, problem: .invalidIdentity(why)))
                out.append(PinnedIdentity(text: ""))
                continue
            }
            let identity = PinnedIdentity(text: text)
            if identity.digest == nil {
                notes.append(
                    .init(
                        keyPath: p,
                        problem: .invalidIdentity("'\(InputExcerpt.quote(text))' is not the base64 of 32 bytes")))
            }
            out.append(identity)
        }
        return out
    }

    /// An unknown key, with the known key it most resembles (same letters in another case, or
    /// at most two edits away).
    static func unknown(_ key: String, among known: [String]) -> ATSConfigurationNote.Problem {
        let lower = key.lowercased()
        if let same = known.first(where: { $0.lowercased() == lower }) { return .unknownKey(suggestion: same) }
        // Keys longer than any known key by more than two cannot be two edits away; skipping
        // them also bounds the work on a hostile key.
        guard key.utf8.count <= 64 else { return .unknownKey(suggestion: nil) }
        let best = known.map { ($0, EditDistance.between(lower, $0.lowercased(), limit: 2)) }.min { $0.1 < $1.1 }
        if let best, best.1 <= 2 { return .unknownKey(suggestion: best.0) }
        return .unknownKey(suggestion: nil)
    }

    /// Reads an Info.plist file's bytes (XML or binary) and decodes its ATS configuration.
    /// - Parameter bytes: The file's contents.
    /// - Returns: The configuration.
    /// - Throws: `ATSConfigurationError` with the reader's reason when the bytes are no property
    ///   list, or when NSAppTransportSecurity is not a dictionary.
    public static func decode(infoPlist bytes: [UInt8]) throws(ATSConfigurationError) -> ATSConfiguration {
        let value: PropertyListValue
        do {
            value = try PropertyList.parse(bytes)
        } catch {
            throw ATSConfigurationError(description: "not a readable property list: \(error)")
        }
        return try decode(value)
    }
}
