/// SecTrustResultType as SecTrustGetTrustResult would report it.
public enum TrustResultType: String, Hashable, Sendable {
    case unspecified, proceed, deny, recoverableTrustFailure, fatalTrustFailure
}

/// The outcome: trusted or not, and the codes Apple's APIs would produce.
public struct Verdict: Hashable, Sendable {
    /// Whether the connection would proceed.
    public var trusted: Bool
    /// What SecTrustEvaluateWithError would return (0 = errSecSuccess).
    public var osstatus: Int32
    /// SecTrustGetTrustResult's answer.
    public var resultType: TrustResultType
    /// The URLError code URLSession would report, nil when trusted.
    public var urlError: Int?
    /// The step whose failure decided the OSStatus, if any.
    public var decisiveStep: Step?
    /// One line for people.
    public var summary: String

    /// The constant's name, e.g. `errSecHostNameMismatch`.
    public var osstatusName: String { OSStatusNames.name(osstatus) }

    /// The URLError code's name, e.g. `NSURLErrorServerCertificateUntrusted`.
    public var urlErrorName: String? { urlError.map(URLErrorNames.name) }
}

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
        -67903: "errSecCertificateDuplicateExtension",
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

/// URLError codes with Darwin's values (never Foundation's constants on Linux, which differ).
public enum URLErrorNames {
    static let table: [Int: String] = [
        -999: "NSURLErrorCancelled", -1001: "NSURLErrorTimedOut", -1003: "NSURLErrorCannotFindHost",
        -1004: "NSURLErrorCannotConnectToHost", -1005: "NSURLErrorNetworkConnectionLost",
        -1022: "NSURLErrorAppTransportSecurityRequiresSecureConnection",
        -1200: "NSURLErrorSecureConnectionFailed", -1201: "NSURLErrorServerCertificateHasBadDate",
        -1202: "NSURLErrorServerCertificateUntrusted", -1203: "NSURLErrorServerCertificateHasUnknownRoot",
        -1204: "NSURLErrorServerCertificateNotYetValid", -1205: "NSURLErrorClientCertificateRejected",
        -1206: "NSURLErrorClientCertificateRequired",
    ]

    /// The constant's name, or `URLError N` when unknown.
    public static func name(_ code: Int) -> String { table[code] ?? "URLError \(code)" }
}
