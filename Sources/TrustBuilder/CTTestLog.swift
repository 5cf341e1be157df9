import TrustSupport
import TrustX509

/// A Certificate Transparency log of the caller's making, for the lab and the tests: a key that
/// signs SCTs (RFC 6962 3.2) over certificates and precertificates. It keeps no log; it only
/// signs, which is all an SCT check can see.
public struct CTTestLog: Sendable {
    /// The log's key (P-256 unless another kind is given).
    public let key: KeyPair
    /// The log's name, as a log list would describe it.
    public let description: String
    /// The operator's name.
    public let operatorName: String

    /// The log's ID: SHA-256 of its DER SubjectPublicKeyInfo.
    public var logID: [UInt8] { Digest.sha256(key.spkiDER) }

    /// Creates a log with a fresh key.
    /// - Throws: `BuilderError` when the key cannot be made.
    public init(_ description: String, operatorName: String, kind: KeyKind = .ecP256) throws(BuilderError) {
        self.init(description, operatorName: operatorName, key: try KeyPair.generate(kind))
    }

    /// Creates a log around an existing key.
    public init(_ description: String, operatorName: String, key: KeyPair) {
        self.key = key
        self.description = description
        self.operatorName = operatorName
    }

    /// An SCT for `entry` at `time`, signed by this log (or by `signer`, to make one whose
    /// signature does not verify).
    /// - Throws: `BuilderError` when signing fails.
    public func sct(for entry: CTLogEntry, at time: Timestamp, signer: KeyPair? = nil) throws(BuilderError)
        -> SignedCertificateTimestamp
    {
        let signingKey = signer ?? key
        let milliseconds = UInt64(max(0, time.secondsSinceEpoch)) * 1000
        let unsigned = SignedCertificateTimestamp(
            logID: logID, timestampMilliseconds: milliseconds, hashAlgorithm: 4,
            signatureAlgorithm: signingKey.isRSA ? 1 : 3, signature: [])
        let signature = try signingKey.sign(unsigned.signedData(over: entry), hash: .sha256)
        return SignedCertificateTimestamp(
            logID: logID, timestampMilliseconds: milliseconds, hashAlgorithm: 4,
            signatureAlgorithm: signingKey.isRSA ? 1 : 3, signature: signature)
    }

    /// An SCT over `certificate` itself, as a server delivers it in its TLS extension or OCSP
    /// response.
    /// - Throws: `BuilderError` when signing fails.
    public func sct(for certificate: Certificate, at time: Timestamp, signer: KeyPair? = nil) throws(BuilderError)
        -> SignedCertificateTimestamp
    {
        try sct(for: .certificate(certificate), at: time, signer: signer)
    }
}

/// One SCT to embed: which log signs it and when.
public struct EmbeddedSCTRequest: Sendable {
    /// The log.
    public var log: CTTestLog
    /// The SCT's timestamp.
    public var time: Timestamp
    /// A key that signs instead of the log's (an SCT whose signature does not verify); nil for the log's.
    public var signer: KeyPair?

    /// Creates a request.
    public init(_ log: CTTestLog, at time: Timestamp, signer: KeyPair? = nil) {
        self.log = log
        self.time = time
        self.signer = signer
    }
}

extension CertificateBuilder {
    /// Signs the certificate with SCTs embedded: each log signs the precertificate (this
    /// certificate's TBSCertificate without the SCT list, with the issuer's key hash), and the
    /// list goes in as the last extension, so taking it out again gives what the logs signed.
    /// - Throws: `BuilderError`.
    public func signWithEmbeddedSCTs(
        _ requests: [EmbeddedSCTRequest], issuerKey: KeyPair, issuer: Certificate
    ) throws(BuilderError) -> Certificate {
        let algorithm = signatureAlgorithm ?? SignatureAlgorithm.standard(for: issuerKey.kind)
        let keyIdentifier = issuer.subjectKeyIdentifier ?? issuerKey.keyIdentifier
        var builder = self
        let precertificate = builder.tbsDER(
            algorithm: algorithm, issuerNameDER: issuer.subject.der, issuerKeyIdentifier: keyIdentifier)
        let entry = CTLogEntry.precertificate(tbs: precertificate, issuerKeyHash: Digest.sha256(issuer.publicKey.der))
        var scts: [[UInt8]] = []
        for r in requests { scts.append(try r.log.sct(for: entry, at: r.time, signer: r.signer).encoded) }
        builder.rawExtensions.append(
            RawExtension(
                oid: OID(dotted: "1.3.6.1.4.1.11129.2.4.2")!, critical: false,
                value: DERWriter.encode { $0.octetString(SignedCertificateTimestampList.encode(scts)) }))
        return try builder.sign(issuerKey: issuerKey, issuer: issuer)
    }
}

extension KeyPair {
    fileprivate var isRSA: Bool {
        if case .rsa = kind { return true }
        return false
    }
}
