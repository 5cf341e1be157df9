import TrustSupport

/// The stapled OCSP response (RFC 6960), decoded enough to show its status.
public struct OCSPStaple: Hashable, Sendable {
    /// The outer responseStatus: `successful`, `malformedRequest`, `internalError`, `tryLater`,
    /// `sigRequired`, `unauthorized`.
    public var responseStatus: String
    /// The leaf's status in the response: `good`, `revoked`, `unknown`; nil when the response
    /// holds no entry for the leaf's serial (or is not successful).
    public var certificateStatus: String?
    /// When the leaf was revoked, if it was.
    public var revocationTime: Timestamp?
    /// thisUpdate of the leaf's entry.
    public var thisUpdate: Timestamp?
    /// nextUpdate of the leaf's entry, if present.
    public var nextUpdate: Timestamp?
    /// The response's DER, for the evaluator or an export.
    public var der: [UInt8]
}
