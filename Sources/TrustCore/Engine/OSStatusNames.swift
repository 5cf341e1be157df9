/// Names of the OSStatus values the engine can produce (Security/SecBase.h, SecureTransport.h).
public enum OSStatusNames {
    static let table: [Int32: String] = [
        0: "errSecSuccess", -25318: "errSecCreateChainFailed", -67602: "errSecHostNameMismatch",
        -67603: "errSecUnknownCriticalExtensionFlag", -67604: "errSecNoBasicConstraints",
        -67605: "errSecNoBasicConstraintsCA", -67608: "errSecInvalidKeyUsageForPolicy",
        -67609: "errSecInvalidExtendedKeyUsage", -67610: "errSecInvalidIDLinkage",
        -67611: "errSecPathLengthConstraintExceeded", -67612: "errSecInvalidRoot",
        -67618: "errSecUnknownCertExtension", -67655: "errSecInvalidSubjectName", -67688: "errSecInvalidSignature",
        -67689: "errSecInvalidName", -67735: "errSecUnsupportedKeySize", -67811: "errSecPublicKeyInconsistent",
        -67815: "errSecInvalidDigestAlgorithm", -67818: "errSecCertificateExpired",
        -67819: "errSecCertificateNotValidYet", -67820: "errSecCertificateRevoked",
        -67825: "errSecVerifyActionFailed", -67835: "errSecInvalidPolicyIdentifiers", -67843: "errSecNotTrusted",
        -67880: "errSecMissingRequiredExtension", -67901: "errSecCertificateValidityPeriodTooLong",
        -67903: "errSecCertificateDuplicateExtension", -67635: "errSecIncompleteCertRevocationCheck",
        -9807: "errSSLXCertChainInvalid", -9813: "errSSLNoRootCert", -9814: "errSSLCertExpired",
        -9843: "errSSLHostNameMismatch", -9880: "errSSLATSViolation", -9881: "errSSLATSMinimumVersionViolation",
        -9882: "errSSLATSCiphersuiteViolation", -9883: "errSSLATSMinimumKeySizeViolation",
        -9884: "errSSLATSLeafCertificateHashAlgorithmViolation",
        -9885: "errSSLATSCertificateHashAlgorithmViolation", -9886: "errSSLATSCertificateTrustViolation",
        -9802: "errSSLFatalAlert",
    ]

    /// The constant's name, or `OSStatus N` when unknown.
    public static func name(_ status: Int32) -> String { table[status] ?? "OSStatus \(status)" }
}
