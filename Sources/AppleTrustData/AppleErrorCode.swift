/// One constant of Apple's error headers, as `AppleErrorCodes` compiles them in.
public struct AppleErrorCode: Sendable, Hashable {
    /// Which header family a code belongs to: the families share no value, but a bare number is
    /// looked up in all of them.
    public enum Domain: String, Sendable, Hashable, CaseIterable {
        /// Security's OSStatus codes (errSec..., SecBase.h).
        case security
        /// SecureTransport and ATS codes (errSSL..., -98xx, SecBase.h): the stream error Xcode prints
        /// in brackets, `[3:-9813]`.
        case secureTransport
        /// URL loading codes (NSURLErrorDomain, NSURLError.h).
        case urlLoading
    }

    /// The header family.
    public var domain: Domain
    /// The value.
    public var code: Int
    /// The constant's name as the header spells it.
    public var name: String
    /// What the header (or, for URL codes, Apple's documentation) says it means; empty when it says nothing.
    public var meaning: String
    /// For a deprecated alias, the constant it stands for.
    public var aliasOf: String?

    /// Creates a record (the generated table's initializer).
    public init(_ domain: Domain, _ code: Int, _ name: String, _ meaning: String, aliasOf: String? = nil) {
        self.domain = domain
        self.code = code
        self.name = name
        self.meaning = meaning
        self.aliasOf = aliasOf
    }

    /// The line the generator hashes for this record: kind, value, name, meaning, alias, tab-separated.
    public var canonicalLine: String {
        "\(domain == .urlLoading ? "url" : "osstatus")\t\(code)\t\(name)\t\(meaning)\t\(aliasOf ?? "")"
    }
}
