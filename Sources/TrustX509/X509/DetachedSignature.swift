/// A signature over bytes that are not a certificate: a CRL's tbsCertList or an OCSP response's
/// tbsResponseData, named by the digest of the whole encoding.
package struct DetachedSignature {
    /// The SHA-256 of the whole encoding (signature included), the cache's name for it.
    package var identity: DigestKey
    package var algorithm: AlgorithmIdentifier
    package var signed: ArraySlice<UInt8>
    package var signature: [UInt8]
}
