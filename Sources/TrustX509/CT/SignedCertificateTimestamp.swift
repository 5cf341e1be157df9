import TrustSupport

/// A Signed Certificate Timestamp (RFC 6962 3.2) as trustd reads one: a v1 SCT's fields, with
/// the TLS encoding it came in. Read with Apple's rules (Security, trust/trustd/
/// CertificateTransparency.m, getSCTValidatingLog): at least 43 bytes, the extensions within the
/// input, and the signature ending exactly at the end of the input.
public struct SignedCertificateTimestamp: Hashable, Sendable {
    /// The TLS encoding, as received.
    public let encoded: [UInt8]
    /// The version byte (0 is v1, the only one Apple accepts).
    public let version: UInt8
    /// The log's ID: SHA-256 of its key.
    public let logID: [UInt8]
    /// Milliseconds since 1970.
    public let timestampMilliseconds: UInt64
    /// The CtExtensions bytes (without their length).
    public let extensions: [UInt8]
    /// The TLS HashAlgorithm of the signature (2 SHA-1, 4 SHA-256, 5 SHA-384).
    public let hashAlgorithm: UInt8
    /// The TLS SignatureAlgorithm (1 RSA, 3 ECDSA).
    public let signatureAlgorithm: UInt8
    /// The signature.
    public let signature: [UInt8]

    /// The SCT's time, whole seconds (trustd drops the milliseconds).
    public var timestamp: Timestamp { Timestamp(secondsSinceEpoch: Int64(timestampMilliseconds / 1000)) }

    /// Reads one TLS-encoded SCT, or says why trustd would not.
    public static func parse(_ bytes: [UInt8]) -> Result<SignedCertificateTimestamp, SCTReadError> {
        guard bytes.count >= 43 else { return .failure(SCTReadError("shorter than an SCT's 43 fixed bytes")) }
        func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        var ts: UInt64 = 0
        for k in 33..<41 { ts = ts << 8 | UInt64(bytes[k]) }
        let extensionsLength = u16(41)
        var i = 43
        guard bytes.count - i >= extensionsLength else {
            return .failure(SCTReadError("its extensions run past its end"))
        }
        let extensions = Array(bytes[i..<(i + extensionsLength)])
        i += extensionsLength
        guard bytes.count - i >= 4 else { return .failure(SCTReadError("it ends before its signature")) }
        let hash = bytes[i]
        let algorithm = bytes[i + 1]
        let signatureLength = u16(i + 2)
        i += 4
        guard bytes.count - i == signatureLength else {
            return .failure(
                SCTReadError(
                    bytes.count - i < signatureLength
                        ? "its signature runs past its end" : "bytes follow its signature"))
        }
        return .success(
            SignedCertificateTimestamp(
                encoded: bytes, version: bytes[0], logID: Array(bytes[1..<33]), timestampMilliseconds: ts,
                extensions: extensions, hashAlgorithm: hash, signatureAlgorithm: algorithm,
                signature: Array(bytes[i...])))
    }

    /// Creates an SCT from its fields, encoding it.
    public init(
        version: UInt8 = 0, logID: [UInt8], timestampMilliseconds: UInt64, extensions: [UInt8] = [],
        hashAlgorithm: UInt8, signatureAlgorithm: UInt8, signature: [UInt8]
    ) {
        var out: [UInt8] = [version] + logID
        for k in (0..<8).reversed() { out.append(UInt8(truncatingIfNeeded: timestampMilliseconds >> (8 * UInt64(k)))) }
        out += [UInt8(extensions.count >> 8 & 0xFF), UInt8(extensions.count & 0xFF)] + extensions
        out += [hashAlgorithm, signatureAlgorithm, UInt8(signature.count >> 8 & 0xFF), UInt8(signature.count & 0xFF)]
        out += signature
        self.init(
            encoded: out, version: version, logID: logID, timestampMilliseconds: timestampMilliseconds,
            extensions: extensions, hashAlgorithm: hashAlgorithm, signatureAlgorithm: signatureAlgorithm,
            signature: signature)
    }

    private init(
        encoded: [UInt8], version: UInt8, logID: [UInt8], timestampMilliseconds: UInt64, extensions: [UInt8],
        hashAlgorithm: UInt8, signatureAlgorithm: UInt8, signature: [UInt8]
    ) {
        self.encoded = encoded
        self.version = version
        self.logID = logID
        self.timestampMilliseconds = timestampMilliseconds
        self.extensions = extensions
        self.hashAlgorithm = hashAlgorithm
        self.signatureAlgorithm = signatureAlgorithm
        self.signature = signature
    }

    /// The data the log signed (RFC 6962 3.2): version, signature type, timestamp, entry type,
    /// the entry and the extensions.
    /// - Parameter entry: The log entry, from `CTLogEntry`.
    public func signedData(over entry: CTLogEntry) -> [UInt8] {
        var out: [UInt8] = [version, 0]
        out += encoded[33..<41]
        out += [0, entry.type]
        out += entry.bytes
        out += [UInt8(extensions.count >> 8 & 0xFF), UInt8(extensions.count & 0xFF)] + extensions
        return out
    }

    /// The signature algorithm as an AlgorithmIdentifier, for the pairs trustd accepts (RSA or
    /// ECDSA with SHA-1, SHA-256 or SHA-384); nil for any other.
    public var signatureAlgorithmIdentifier: AlgorithmIdentifier? {
        let oid: OID? =
            switch (signatureAlgorithm, hashAlgorithm) {
            case (1, 2): .sha1WithRSA
            case (1, 4): .sha256WithRSA
            case (1, 5): .sha384WithRSA
            case (3, 2): .ecdsaWithSHA1
            case (3, 4): .ecdsaWithSHA256
            case (3, 5): .ecdsaWithSHA384
            default: nil
            }
        guard let oid else { return nil }
        let rsa = signatureAlgorithm == 1
        let der = DERWriter.encode { w in
            w.sequence { w in
                w.oid(oid)
                if rsa { w.element(tag: 0x05, content: []) }
            }
        }
        return AlgorithmIdentifier(oid: oid, parameters: rsa ? [0x05, 0x00] : nil, der: der)
    }
}

/// Why an SCT was not read.
public struct SCTReadError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The reason, in words.
    public let description: String
    init(_ description: String) { self.description = description }
}

/// A SignedCertificateTimestampList (RFC 6962 3.3), split as trustd splits it (Security,
/// OSX/utilities/SecSCTUtils.c, SecCreateSignedCertificateTimestampsArrayFromSerializedSCTList):
/// the whole list or nothing.
public enum SignedCertificateTimestampList {
    /// The most SCTs taken from one list: far above what any server sends (two to five), a bound
    /// on attacker-sized input; the rest are left out.
    public static let maximumEntries = 64

    /// The list's SCTs, each still encoded; nil when the list's framing is wrong (its length
    /// does not match, an entry runs past its end, or it is empty), which trustd ignores.
    public static func split(_ bytes: [UInt8]) -> [[UInt8]]? {
        guard bytes.count > 2 else { return nil }
        func u16(_ i: Int) -> Int { Int(bytes[i]) << 8 | Int(bytes[i + 1]) }
        guard u16(0) == bytes.count - 2 else { return nil }
        var out: [[UInt8]] = []
        var i = 2
        while i < bytes.count {
            guard bytes.count - i >= 2 else { return nil }
            let length = u16(i)
            i += 2
            guard length <= bytes.count - i else { return nil }
            if out.count < maximumEntries { out.append(Array(bytes[i..<(i + length)])) }
            i += length
        }
        return out
    }

    /// Encodes SCTs as a list.
    public static func encode(_ scts: [[UInt8]]) -> [UInt8] {
        var body: [UInt8] = []
        for s in scts { body += [UInt8(s.count >> 8 & 0xFF), UInt8(s.count & 0xFF)] + s }
        return [UInt8(body.count >> 8 & 0xFF), UInt8(body.count & 0xFF)] + body
    }
}
