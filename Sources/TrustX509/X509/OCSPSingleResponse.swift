import TrustSupport

/// One SingleResponse of a BasicOCSPResponse (RFC 6960 4.2.1).
public struct OCSPSingleResponse: Hashable, Sendable {
    /// The certificate's status.
    public enum Status: Hashable, Sendable {
        case good
        case revoked(Timestamp)
        case unknown
    }
    /// certID.hashAlgorithm.
    public var hashAlgorithm: OID
    /// certID.issuerNameHash.
    public var issuerNameHash: [UInt8]
    /// certID.issuerKeyHash.
    public var issuerKeyHash: [UInt8]
    /// certID.serialNumber's content octets.
    public var serialNumber: [UInt8]
    /// certStatus.
    public var status: Status
    /// thisUpdate.
    public var thisUpdate: Timestamp
    /// nextUpdate, when present.
    public var nextUpdate: Timestamp?
}
