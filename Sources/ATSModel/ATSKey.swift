/// One key of Apple's NSAppTransportSecurity dictionary: its name, where it may be written, the
/// type of its value and what current systems make of it. `ATSKey.all` is the one table the
/// decoder and the lint both read.
public struct ATSKey: Hashable, Sendable {
    /// A dictionary in which ATS keys are written.
    public enum Place: Hashable, Sendable {
        /// NSAppTransportSecurity itself.
        case topLevel
        /// One domain's dictionary under NSExceptionDomains.
        case exceptionDomain
        /// One domain's dictionary under NSPinnedDomains.
        case pinnedDomain
        /// One entry of NSPinnedLeafIdentities or NSPinnedCAIdentities.
        case identity
    }

    /// The type of value ATS reads for the key.
    public enum ValueType: Hashable, Sendable {
        /// A boolean; ATS also takes a number, YES only when it equals 1.
        case boolean
        /// A boolean honoured only as `<true/>` (NSPinnedDomains' NSIncludesSubdomains).
        case strictBoolean
        /// One of the exact spellings TLSv1.0 to TLSv1.3.
        case tlsVersion
        /// A dictionary of domain names, each holding a dictionary of keys.
        case domains
        /// An array of identity dictionaries.
        case identities
        /// The base64 of a SHA-256 digest of a SubjectPublicKeyInfo.
        case spkiDigest
    }

    /// Whether Apple's systems act on the key.
    public enum Status: Hashable, Sendable {
        /// Read and honoured on every platform with ATS.
        case honoured
        /// Read, and ignored on iOS 10, macOS 10.12 and later (every current platform) when any of
        /// these keys is present beside it.
        case ignoredBeside([String])
        /// Read, but without effect on current systems: they enforce what it asks for themselves.
        case noEffect
        /// A key of the first ATS release (iOS 9), ignored by every current platform; `replacement`
        /// took its place.
        case obsolete(replacement: String)
    }

    /// The key as written in the property list.
    public var name: String
    /// The dictionaries it may be written in.
    public var places: [Place]
    /// The type of its value.
    public var type: ValueType
    /// What current systems make of it.
    public var status: Status

    /// Creates a table entry.
    public init(_ name: String, in places: [Place], type: ValueType, status: Status = .honoured) {
        self.name = name
        self.places = places
        self.type = type
        self.status = status
    }

    /// Whether current systems still know the key (it is no first-release leftover).
    public var isCurrent: Bool {
        if case .obsolete = status { return false }
        return true
    }

    /// Every key, in the order the lint lists known keys in its advice.
    public static let all: [ATSKey] = [
        ATSKey(
            "NSAllowsArbitraryLoads", in: [.topLevel], type: .boolean,
            status: .ignoredBeside([
                "NSAllowsArbitraryLoadsForMedia", "NSAllowsArbitraryLoadsInWebContent", "NSAllowsLocalNetworking",
            ])),
        ATSKey("NSAllowsArbitraryLoadsForMedia", in: [.topLevel], type: .boolean),
        ATSKey("NSAllowsArbitraryLoadsInWebContent", in: [.topLevel], type: .boolean),
        ATSKey("NSAllowsLocalNetworking", in: [.topLevel], type: .boolean),
        ATSKey("NSExceptionDomains", in: [.topLevel], type: .domains),
        ATSKey("NSPinnedDomains", in: [.topLevel], type: .domains),
        ATSKey("NSIncludesSubdomains", in: [.exceptionDomain], type: .boolean),
        ATSKey("NSExceptionAllowsInsecureHTTPLoads", in: [.exceptionDomain], type: .boolean),
        ATSKey("NSExceptionRequiresForwardSecrecy", in: [.exceptionDomain], type: .boolean),
        ATSKey("NSRequiresCertificateTransparency", in: [.exceptionDomain], type: .boolean, status: .noEffect),
        ATSKey("NSExceptionMinimumTLSVersion", in: [.exceptionDomain], type: .tlsVersion),
        obsolete("NSTemporaryExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads", .boolean),
        obsolete("NSTemporaryExceptionMinimumTLSVersion", "NSExceptionMinimumTLSVersion", .tlsVersion),
        obsolete("NSTemporaryExceptionRequiresForwardSecrecy", "NSExceptionRequiresForwardSecrecy", .boolean),
        obsolete("NSThirdPartyExceptionAllowsInsecureHTTPLoads", "NSExceptionAllowsInsecureHTTPLoads", .boolean),
        obsolete("NSThirdPartyExceptionMinimumTLSVersion", "NSExceptionMinimumTLSVersion", .tlsVersion),
        obsolete("NSThirdPartyExceptionRequiresForwardSecrecy", "NSExceptionRequiresForwardSecrecy", .boolean),
        obsolete("NSExceptionAllowsInsecureHTTPSLoads", "NSExceptionAllowsInsecureHTTPLoads", .boolean),
        // Apple's pinning code compares this one with kCFBooleanTrue itself.
        ATSKey("NSIncludesSubdomains", in: [.pinnedDomain], type: .strictBoolean),
        ATSKey("NSPinnedLeafIdentities", in: [.pinnedDomain], type: .identities),
        ATSKey("NSPinnedCAIdentities", in: [.pinnedDomain], type: .identities),
        ATSKey("SPKI-SHA256-BASE64", in: [.identity], type: .spkiDigest),
    ]

    private static func obsolete(_ name: String, _ replacement: String, _ type: ValueType) -> ATSKey {
        ATSKey(name, in: [.exceptionDomain], type: type, status: .obsolete(replacement: replacement))
    }

    /// The current keys of one dictionary, in table order: what ATS reads there.
    /// - Parameter place: The dictionary.
    /// - Returns: Their names.
    public static func names(in place: Place) -> [String] {
        all.filter { $0.places.contains(place) && $0.isCurrent }.map(\.name)
    }

    /// The current keys of one dictionary whose value is a boolean ATS also reads from a number.
    /// - Parameter place: The dictionary.
    /// - Returns: Their names, in table order.
    public static func booleans(in place: Place) -> [String] {
        all.filter { $0.places.contains(place) && $0.isCurrent && $0.type == .boolean }.map(\.name)
    }

    /// The first-release keys of one dictionary, each with the key that replaced it.
    /// - Parameter place: The dictionary.
    /// - Returns: Obsolete name to replacement.
    public static func obsoleteKeys(in place: Place) -> [String: String] {
        var out: [String: String] = [:]
        for key in all where key.places.contains(place) {
            if case .obsolete(let replacement) = key.status { out[key.name] = replacement }
        }
        return out
    }

    /// The table entry for a key written in a dictionary.
    /// - Parameters:
    ///   - name: The key as written.
    ///   - place: The dictionary.
    /// - Returns: The entry, or nil for a key ATS does not know there.
    public static func named(_ name: String, in place: Place) -> ATSKey? {
        all.first { $0.name == name && $0.places.contains(place) }
    }
}
