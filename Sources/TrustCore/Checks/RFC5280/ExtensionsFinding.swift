/// What the `critical-extensions` and `compliance` steps found (ExtensionsCheck).
enum ExtensionsFinding: RuleFinding {
    case criticalExtensionsUnderstood
    case unknownCriticalExtension(oid: String)
    case compliant
    case duplicateExtension(detail: String)
    case unparseableExtension(name: String, reason: String)
    case emptySubject
    case keyIdentifierMismatch

    var storage: Finding.Storage { .extensions(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .unknownCriticalExtension: AppleFailure("CriticalExtensions", .compliance, -67603)
        case .duplicateExtension: AppleFailure("DuplicateExtension", .compliance, -67903)
        case .unparseableExtension: AppleFailure("UnparseableExtension", .compliance, -67618)
        case .emptySubject: AppleFailure("NonEmptySubject", .compliance, -67655)
        case .keyIdentifierMismatch: AppleFailure("IdLinkage", .compliance, -67610)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .criticalExtensionsUnderstood: "Every critical extension understood"
        case .unknownCriticalExtension(let oid): "Unknown critical extension \(oid)"
        case .compliant: "Encoding is standards compliant"
        case .duplicateExtension: "Duplicate extension"
        case .unparseableExtension(let name, _): "Extension \(name) cannot be read"
        case .emptySubject: "Empty subject"
        case .keyIdentifierMismatch: "Authority key identifier does not match the issuer's"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .criticalExtensionsUnderstood:
            "Every extension marked critical is one the evaluator understands and enforces (RFC 5280 4.2), including certificatePolicies, policyMappings, policyConstraints and inhibitAnyPolicy, which the certificate-policies step processes."
        case .unknownCriticalExtension(let oid):
            "A critical extension (\(oid)) that is not understood must cause rejection (RFC 5280 4.2; Apple CriticalExtensions, errSecUnknownCriticalExtensionFlag)."
        case .compliant:
            "No duplicate, malformed or inconsistent fields."
        case .duplicateExtension(let d):
            "\(d): an extension may appear only once (RFC 5280 4.2; Apple DuplicateExtension, errSecCertificateDuplicateExtension)."
        case .unparseableExtension(let name, let reason):
            "The value of the \(name) extension does not parse (\(reason)); Apple's parser records it and evaluation fails under every policy (Apple UnparseableExtension, errSecUnknownCertExtension)."
        case .emptySubject:
            "A CA, or a leaf without a critical subjectAltName, needs a non-empty subject (RFC 5280 4.1.2.6; Apple NonEmptySubject, errSecInvalidSubjectName)."
        case .keyIdentifierMismatch:
            "The authorityKeyIdentifier names a different key than the issuer's subjectKeyIdentifier (Apple IdLinkage, errSecInvalidIDLinkage)."
        }
    }

    var specifics: String? {
        if case .duplicateExtension(let detail) = self { return detail }
        return nil
    }
}
