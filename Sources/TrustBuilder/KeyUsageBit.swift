/// keyUsage bits (RFC 5280 4.2.1.3).
public enum KeyUsageBit: Int, Hashable, Sendable, CaseIterable {
    /// Bit 0: signatures other than on certificates and CRLs (TLS server keys need it).
    case digitalSignature = 0
    /// Bit 1: non-repudiation (contentCommitment).
    case nonRepudiation
    /// Bit 2: key transport (RSA key exchange).
    case keyEncipherment
    /// Bit 3: direct data encryption.
    case dataEncipherment
    /// Bit 4: key agreement.
    case keyAgreement
    /// Bit 5: signing certificates; an issuer whose keyUsage lacks it fails Apple's KeyUsage check.
    case keyCertSign
    /// Bit 6: signing CRLs.
    case cRLSign
    /// Bit 7: encipher only (with keyAgreement).
    case encipherOnly
    /// Bit 8: decipher only (with keyAgreement).
    case decipherOnly
}
