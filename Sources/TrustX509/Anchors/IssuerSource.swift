/// A source of candidate issuers: the system trust store, in practice.
public protocol IssuerSource: Sendable {
    /// Certificates whose subject matches `name`.
    func certificates(withSubject name: DistinguishedName) -> [Certificate]
    /// Whether this exact certificate is in the source.
    func contains(_ certificate: Certificate) -> Bool
    /// A one-line description of where it reads from.
    var location: String { get }
    /// Which store this is, as `--store` names it: `apple`, `openssl`, or the path given.
    var storeName: String { get }
    /// The store's version: Apple's data tag, or for a store read from files, where it reads.
    var storeVersion: String { get }
    /// Why this certificate, though it looks like a root, is not one of this store's: for Apple's
    /// store, a root Apple removed. Nil when the store says nothing about it.
    func removalNote(for certificate: Certificate) -> String?
}

extension IssuerSource {
    /// A source that does not say which store it is is named by its location.
    public var storeName: String { location }
    /// A source without versions is described by its location.
    public var storeVersion: String { location }
    /// Sources other than Apple's store know of no removed roots.
    public func removalNote(for certificate: Certificate) -> String? { nil }
}
