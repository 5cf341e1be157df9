/// One authorityInfoAccess entry (RFC 5280 4.2.2.1).
public struct AccessDescription: Hashable, Sendable {
    /// caIssuers or OCSP, or another method.
    public var method: OID
    /// Where.
    public var location: GeneralName
}
