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
    /// The SignedCertificateTimestampList of the singleExtensions' SCT extension
    /// (1.3.6.1.4.1.11129.2.4.5, RFC 6962 3.3), when present and readable.
    public var sctList: [UInt8]? = nil
}
