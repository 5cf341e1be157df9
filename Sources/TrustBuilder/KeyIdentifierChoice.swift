/// How a key identifier extension is produced.
public enum KeyIdentifierChoice: Hashable, Sendable {
    /// From the key (SHA-1 of the subjectPublicKey bits, RFC 5280 4.2.1.2 method 1); for the
    /// authority key identifier, the issuer certificate's subjectKeyIdentifier when it has one.
    /// Self-signed certificates get no authority key identifier (RFC 5280 4.2.1.1 allows that).
    case automatic
    /// Not written.
    case omitted
    /// Exactly these bytes (for mismatch tests).
    case explicit([UInt8])
}
