import TrustSupport

/// Which class of anchor a path ends at; Apple's requirements differ by class.
public enum AnchorClass: String, Hashable, Sendable {
    /// A root of the system trust store.
    case system
    /// A custom anchor the app set (SecTrustSetAnchorCertificates): `CustomAnchorClass.app`.
    case custom
    /// A custom anchor the device trusts: installed by a configuration profile and trusted in
    /// Settings (trustd's user anchor source): `CustomAnchorClass.device`. Apple relaxes the
    /// serverAuth, lifetime-maximum, key-size and signature-hash rules for it (docs/steps.md).
    case device

    /// `a system root`, `a custom anchor`, `a device-trusted anchor`.
    public var phrase: String {
        switch self {
        case .system: "a system root"
        case .custom: "a custom anchor"
        case .device: "a device-trusted anchor"
        }
    }
}

/// What a step found, as a value. Text is rendered from it only when someone reads it.
public enum Finding: Hashable, Sendable {
    // chain
    case chainComplete(length: Int)
    case chainEndsSelfSigned(length: Int)
    case issuerNotFound(issuer: String)
    case depthExceeded(limit: Int)
    // signature
    case signatureValid(algorithm: String)
    case signatureInvalid(candidate: String)
    case signatureUnsupported(reason: String)
    case anchorSignatureNotChecked
    case selfSignatureInvalid
    // validity
    case withinValidity(notBefore: Timestamp, notAfter: Timestamp)
    case expired(notAfter: Timestamp)
    case notYetValid(notBefore: Timestamp)
    // basic constraints
    case leafNeedsNoCA
    case isCA(pathLength: Int?)
    case missingBasicConstraints
    case notCA
    case pathLengthExceeded(limit: Int, actual: Int)
    case leafIsCA
    case v1Issuer
    // key usage
    case keyUsageAbsent
    case keyUsageAllowsCertSign
    case keyUsageLacksCertSign(present: [String])
    case keyUsageMissingOnCA
    case leafKeyUsage(present: [String])
    case leafKeyUsageLacksSignature(present: [String])
    // extended key usage
    case ekuServerAuth
    case ekuMissingRequired(anchorClass: AnchorClass)
    case ekuAbsentAllowed
    case ekuLacks(purpose: String, present: [String])
    case caEKUAllows
    case caEKULacks(purpose: String, present: [String])
    case ekuNotChecked
    /// The path ends at a device-trusted anchor, so the strict serverAuth rule is skipped; `present`
    /// is the leaf's extKeyUsage (empty when it has none).
    case ekuDeviceAnchorExempt(present: [String])
    // name constraints
    case noNameConstraints
    case withinNameConstraints(count: Int)
    case nameConstraintViolated(name: String, reason: String)
    case nameConstraintFormUnsupported(form: String)
    // certificate policies
    case policySet(policies: [String])
    case policyFailed(PolicyFailure)
    // extensions and compliance
    case criticalExtensionsUnderstood
    case unknownCriticalExtension(oid: String)
    case compliant
    case duplicateExtension(detail: String)
    case unparseableExtension(name: String, reason: String)
    case nonCompliant(detail: String)
    case emptySubject
    case keyIdentifierMismatch
    // anchor
    case anchoredAt(anchorClass: AnchorClass, name: String)
    case selfSignedNotTrusted(name: String)
    case noAnchor
    // hostname
    case hostMatched(host: String, name: String)
    case hostMismatch(host: String, explanation: String)
    case hostNotChecked(reason: String)
    case hostIgnored(host: String, wouldMatch: Bool, explanation: String)
    // key size
    case keySizeOK(label: String, bits: Int)
    case keyTooSmall(label: String, bits: Int, minimum: Int)
    case keyWeak(label: String, bits: Int, minimum: Int)
    case keyUnknown(label: String)
    /// The leaf is itself a device-trusted anchor, so the SSL key-size minimum is skipped.
    case keySizeDeviceAnchorExempt(label: String, bits: Int, minimum: Int)
    // signature algorithm
    case signatureAlgorithmOK(name: String)
    case selfSignedHashExempt(name: String)
    case sha1Signature(name: String)
    case weakSignature(name: String)
    /// The device-trusted anchor's own SHA-1 signature, which Apple does not judge.
    case signatureHashDeviceAnchorExempt(name: String)
    // validity period maximum
    case periodWithin(days: Int, maximumDays: Int, rule: String)
    case periodTooLong(days: Int, maximumDays: Int, rule: String)
    case periodNoMaximum(reason: String)
    /// The leaf is itself a device-trusted anchor, so no lifetime maximum applies.
    case periodDeviceAnchorExempt(days: Int)
    // certificate transparency
    case ctNotRequired(reason: String)
    case ctSatisfied(logs: Int, required: Int)
    case ctMissing(logs: Int, required: Int)
    // revocation
    case notRevoked(issuer: String)
    case certificateRevoked(date: Timestamp, source: String)
    case ocspGood(signer: String)
    case revocationNotChecked(reason: String)
    // pins
    case pinMatched(pin: String)
    case pinNotMatched(count: Int)
    case pinNotChecked
    case noPins
    // signature keys refused before verification, and the evaluation's budget
    case signatureKeyRefused(reason: String)
    case budgetExhausted(budget: BudgetKind, limit: Int)
    // App Transport Security and NSPinnedDomains (docs/ats.md)
    case ats(ATSFinding)
    case pinnedDomains(PinnedDomainsFinding)

    /// The TLS layer's ATS failure (code and phase), when this is a failing ATS finding; ATS
    /// failures are not SecTrust results, so `appleFailure` is nil for them.
    public var atsFailure: ATSFailure? {
        if case .ats(let f) = self { return f.failure }
        return nil
    }

    /// Apple's check key, subtype and OSStatus for failing findings.
    public var appleFailure: AppleFailure? {
        switch self {
        case .issuerNotFound, .depthExceeded: AppleFailure("MissingIntermediate", .trust, -25318)
        case .selfSignedNotTrusted, .noAnchor: AppleFailure("AnchorTrusted", .trust, -67843)
        case .expired, .notYetValid: AppleFailure("TemporalValidity", .expired, -67818)
        case .missingBasicConstraints, .v1Issuer: AppleFailure("BasicConstraints", .compliance, -67604)
        case .notCA: AppleFailure("BasicConstraintsCA", .compliance, -67605)
        case .leafIsCA: AppleFailure("BasicConstraintsCA", .compliance, -67605)
        case .pathLengthExceeded: AppleFailure("BasicConstraintsPathLen", .compliance, -67611)
        case .keyUsageLacksCertSign, .keyUsageMissingOnCA, .leafKeyUsageLacksSignature:
            AppleFailure("KeyUsage", .usage, -67608)
        case .ekuMissingRequired, .ekuLacks, .caEKULacks: AppleFailure("ExtendedKeyUsage", .usage, -67609)
        case .nameConstraintViolated, .nameConstraintFormUnsupported:
            AppleFailure("NameConstraints", .compliance, -67689)
        case .policyFailed: AppleFailure("PolicyConstraints", .compliance, -67835)
        case .unknownCriticalExtension: AppleFailure("CriticalExtensions", .compliance, -67603)
        case .duplicateExtension: AppleFailure("DuplicateExtension", .compliance, -67903)
        case .unparseableExtension: AppleFailure("UnparseableExtension", .compliance, -67618)
        case .nonCompliant: AppleFailure("CriticalExtensions", .compliance, -67603)
        case .emptySubject: AppleFailure("NonEmptySubject", .compliance, -67655)
        case .keyIdentifierMismatch: AppleFailure("IdLinkage", .compliance, -67610)
        case .hostMismatch: AppleFailure("SSLHostname", .name, -67602)
        case .keyTooSmall: AppleFailure("KeySize", .keySize, -67735)
        case .keyWeak, .keyUnknown: AppleFailure("WeakKeySize", .keySize, -67735, fatal: true)
        case .sha1Signature: AppleFailure("SignatureHashAlgorithms", .weakHash, -67815)
        case .weakSignature: AppleFailure("WeakSignature", .weakHash, -67815, fatal: true)
        case .periodTooLong: AppleFailure("ValidityPeriodMaximums", .compliance, -67901)
        case .ctMissing: AppleFailure("SystemTrustedCTRequired", .compliance, -67825)
        case .certificateRevoked: AppleFailure("Revocation", .revoked, -67820, fatal: true)
        // trustd gives up building after a bound and reports its best partial path (D35).
        case .budgetExhausted: AppleFailure("MissingIntermediate", .trust, -25318)
        case .pinnedDomains(let f): f.appleFailure
        default: nil
        }
    }

    /// One line, no newline.
    public var title: String {
        switch self {
        case .chainComplete(let n): "Chain of \(n) certificate\(n == 1 ? "" : "s") built"
        case .chainEndsSelfSigned(let n): "Chain of \(n) ends at a self-signed certificate"
        case .issuerNotFound: "Issuer not found"
        case .depthExceeded(let limit): "Chain longer than \(limit) intermediates"
        case .signatureValid(let alg): "Signature verifies (\(alg))"
        case .signatureInvalid: "A candidate issuer's signature does not verify"
        case .signatureUnsupported: "Signature cannot be checked"
        case .anchorSignatureNotChecked: "Anchor taken as trusted, its signature not checked"
        case .selfSignatureInvalid: "Self-signature does not verify"
        case .withinValidity: "Valid at the evaluation time"
        case .expired(let t): "Expired on \(t.rfc3339)"
        case .notYetValid(let t): "Not valid before \(t.rfc3339)"
        case .leafNeedsNoCA: "Leaf: no CA constraint needed"
        case .isCA(let p): p.map { "CA, path length at most \($0)" } ?? "CA"
        case .missingBasicConstraints: "Issuer has no basicConstraints"
        case .notCA: "Issuer is not a CA (cA = FALSE)"
        case .pathLengthExceeded(let limit, let actual): "Path length \(actual) exceeds the limit \(limit)"
        case .leafIsCA: "Leaf is a CA certificate"
        case .v1Issuer: "Version 1 certificate used as an issuer"
        case .keyUsageAbsent: "No keyUsage extension"
        case .keyUsageAllowsCertSign: "keyUsage allows keyCertSign"
        case .keyUsageLacksCertSign: "keyUsage lacks keyCertSign"
        case .keyUsageMissingOnCA: "CA has no keyUsage extension"
        case .leafKeyUsage(let p): "keyUsage: \(p.isEmpty ? "none" : p.joined(separator: ", "))"
        case .leafKeyUsageLacksSignature: "keyUsage does not allow digitalSignature"
        case .ekuServerAuth: "Extended key usage includes serverAuth"
        case .ekuMissingRequired: "No extended key usage, serverAuth required"
        case .ekuAbsentAllowed: "No extended key usage (allowed for this certificate)"
        case .ekuLacks(let purpose, _): "Extended key usage lacks \(purpose)"
        case .caEKUAllows: "Issuer's extended key usage allows the purpose"
        case .caEKULacks(let purpose, _): "Issuer's extended key usage excludes \(purpose)"
        case .ekuNotChecked: "Extended key usage not checked"
        case .ekuDeviceAnchorExempt(let p):
            p.isEmpty
                ? "No extended key usage, allowed under a device-trusted anchor"
                : "Extended key usage \(p.joined(separator: ", ")), allowed under a device-trusted anchor"
        case .noNameConstraints: "No name constraints on the path"
        case .withinNameConstraints: "Names within every issuer's constraints"
        case .nameConstraintViolated(let name, _): "Name \(name) violates a name constraint"
        case .nameConstraintFormUnsupported(let form):
            "Critical name constraint on \(form), a form Apple does not process"
        case .policySet(let p):
            p.isEmpty
                ? "No certificate policy valid for the whole path (none required)"
                : "Valid policies: \(p.joined(separator: ", "))"
        case .policyFailed(.explicitPolicyRequired): "Explicit policy required, but no policy is valid"
        case .policyFailed(.anyPolicyMapped): "policyMappings maps anyPolicy"
        case .policyFailed(.tooLarge): "Certificate policies too large to process"
        case .criticalExtensionsUnderstood: "Every critical extension understood"
        case .unknownCriticalExtension(let oid): "Unknown critical extension \(oid)"
        case .compliant: "Encoding is standards compliant"
        case .duplicateExtension: "Duplicate extension"
        case .unparseableExtension(let name, _): "Extension \(name) cannot be read"
        case .nonCompliant: "Not standards compliant"
        case .emptySubject: "Empty subject"
        case .keyIdentifierMismatch: "Authority key identifier does not match the issuer's"
        case .anchoredAt(let cls, _):
            switch cls {
            case .system: "Anchored at a system root"
            case .custom: "Anchored at a custom anchor (app)"
            case .device: "Anchored at a custom anchor (device-trusted)"
            }
        case .selfSignedNotTrusted: "Self-signed certificate is not a trusted anchor"
        case .noAnchor: "No trusted anchor reached"
        case .hostMatched(let host, let name): "\(host) matches \(name)"
        case .hostMismatch(let host, _): "\(host) matches no subjectAltName"
        case .hostNotChecked: "Host name not checked"
        case .hostIgnored(let host, let wouldMatch, _):
            "Host \(host) not checked: Basic X.509 ignores the host (it would \(wouldMatch ? "" : "not ")have matched)"
        case .keySizeOK(let label, let bits): "\(label) \(bits) bits"
        case .keyTooSmall(let label, let bits, let min): "\(label) \(bits) bits, below \(min)"
        case .keyWeak(let label, let bits, let min): "\(label) \(bits) bits, weak (below \(min))"
        case .keyUnknown(let label): "\(label) key of unknown size"
        case .keySizeDeviceAnchorExempt(let label, let bits, let min):
            "\(label) \(bits) bits, below \(min) but the leaf is a device-trusted anchor"
        case .signatureAlgorithmOK(let name): "\(name)"
        case .selfSignedHashExempt(let name): "\(name) on a self-signed certificate (exempt)"
        case .sha1Signature(let name): "SHA-1 signature (\(name))"
        case .weakSignature(let name): "Weak signature hash (\(name))"
        case .signatureHashDeviceAnchorExempt(let name):
            "SHA-1 signature (\(name)) on a device-trusted anchor (not judged)"
        case .periodWithin(let days, let max, _): "Lifetime \(days) days, within \(max)"
        case .periodTooLong(let days, let max, _): "Lifetime \(days) days, over the \(max)-day maximum"
        case .periodNoMaximum: "No lifetime maximum applies"
        case .periodDeviceAnchorExempt(let days): "Lifetime \(days) days, no maximum for a device-trusted leaf"
        case .ctNotRequired: "Certificate Transparency not required"
        case .ctSatisfied(let logs, let required): "SCTs from \(logs) logs (\(required) required)"
        case .ctMissing(let logs, let required): "SCTs from \(logs) log\(logs == 1 ? "" : "s"), \(required) required"
        case .notRevoked: "Not revoked"
        case .certificateRevoked(let date, _): "Revoked on \(date.rfc3339)"
        case .ocspGood: "OCSP response: good"
        case .revocationNotChecked: "Revocation not checked"
        case .pinMatched: "Pinned key found in the chain"
        case .pinNotMatched: "No certificate in the chain has a pinned key"
        case .pinNotChecked: "Pins not checked: evaluation failed first"
        case .noPins: "No pins set"
        case .signatureKeyRefused: "Candidate issuer's key refused before verification"
        case .ats(let f): f.title
        case .pinnedDomains(let f): f.title
        case .budgetExhausted(let budget, let limit):
            switch budget {
            case .signatureChecks: "Evaluation stopped: more than \(limit) signature checks"
            case .candidateIssuers: "Evaluation stopped: more than \(limit) candidate issuers"
            case .paths: "Evaluation stopped: more than \(limit) candidate paths"
            case .nameConstraintComparisons: "Evaluation stopped: more than \(limit) name-constraint comparisons"
            case .time: "Evaluation stopped at its \(Finding.seconds(milliseconds: limit)) deadline"
            }
        }
    }

    /// The rule in plain words, citing its source.
    public var detail: String {
        switch self {
        case .chainComplete:
            "Every certificate's issuer was found, up to a trusted anchor (RFC 5280 6.1; SecTrust path building)."
        case .chainEndsSelfSigned:
            "Issuers were found up to a self-signed certificate; whether that one is trusted is the anchor step."
        case .issuerNotFound(let issuer):
            "No certificate named \(issuer) was presented, set as an anchor or found in the trust store. Apple reports MissingIntermediate (errSecCreateChainFailed); Apple's SSL policy would also try the AIA caIssuers URL."
        case .depthExceeded(let limit):
            "Path building stops after \(limit) intermediates (a bound against loops and denial of service)."
        case .signatureValid:
            "The issuer's public key verifies this certificate's signature (RFC 5280 6.1.3 (a)(1))."
        case .signatureInvalid(let candidate):
            "The signature does not verify with the key of candidate issuer \(candidate); Apple discards that path and reports the best remaining one (SecCertificateServer.c)."
        case .signatureUnsupported(let reason):
            "\(reason). The path through this issuer is discarded."
        case .anchorSignatureNotChecked:
            "An anchor is trusted as configured; its own signature is not part of path validation (RFC 5280 6.1.1 (d))."
        case .selfSignatureInvalid:
            "The certificate names itself as issuer but its signature does not verify with its own key."
        case .withinValidity(let nb, let na):
            "Valid from \(nb.rfc3339) to \(na.rfc3339) (RFC 5280 4.1.2.5; Apple TemporalValidity)."
        case .expired(let na):
            "The evaluation time is after notAfter \(na.rfc3339). Apple reports TemporalValidity: errSecCertificateExpired (-67818)."
        case .notYetValid(let nb):
            "The evaluation time is before notBefore \(nb.rfc3339). Apple reports this as TemporalValidity too: errSecCertificateExpired (-67818), not errSecCertificateNotValidYet."
        case .leafNeedsNoCA:
            "basicConstraints matters for issuers; a leaf is not required to carry it."
        case .isCA:
            "basicConstraints cA = TRUE lets this certificate issue others (RFC 5280 4.2.1.9)."
        case .missingBasicConstraints:
            "A version 3 issuer must assert basicConstraints cA = TRUE (RFC 5280 4.2.1.9; Apple BasicConstraints, errSecNoBasicConstraints)."
        case .notCA:
            "This certificate signed another but basicConstraints says it is not a CA (RFC 5280 6.1.4 (k); Apple BasicConstraintsCA, errSecNoBasicConstraintsCA)."
        case .pathLengthExceeded(let limit, let actual):
            "pathLenConstraint \(limit) allows at most \(limit) intermediates below this CA; \(actual) follow (RFC 5280 6.1.4 (l)-(m); Apple BasicConstraintsPathLen)."
        case .leafIsCA:
            "A server certificate must not be a CA certificate (CA/Browser Forum BR 7.1.2.7.8)."
        case .v1Issuer:
            "A version 1 certificate has no basicConstraints, so it cannot be shown to be a CA (RFC 5280 6.1.4 (k))."
        case .keyUsageAbsent:
            "Without a keyUsage extension the key is not restricted; Apple checks keyCertSign only when keyUsage is present (Apple KeyUsage)."
        case .keyUsageAllowsCertSign:
            "keyUsage includes keyCertSign, so the key may sign certificates (RFC 5280 4.2.1.3)."
        case .keyUsageMissingOnCA:
            "The webpki profile requires a CA certificate to carry keyUsage with keyCertSign (CA/Browser Forum BR 7.1.2.10.7; RFC 5280 4.2.1.3); Apple checks keyUsage only when present."
        case .keyUsageLacksCertSign(let present):
            "This key signed a certificate but keyUsage (\(present.joined(separator: ", "))) lacks keyCertSign (RFC 5280 6.1.4 (n); Apple KeyUsage, errSecInvalidKeyUsageForPolicy)."
        case .leafKeyUsage:
            "The leaf's keyUsage is shown for reference; Apple's SSL policy does not restrict it."
        case .leafKeyUsageLacksSignature(let present):
            "A TLS server key must allow digitalSignature (or keyEncipherment for RSA key exchange); keyUsage is \(present.joined(separator: ", ")) (RFC 5280 4.2.1.3)."
        case .ekuServerAuth:
            "extKeyUsage contains id-kp-serverAuth (RFC 5280 4.2.1.12; Apple ExtendedKeyUsage)."
        case .ekuMissingRequired(let cls):
            cls == .system
                ? "Chains to system roots need a leaf whose extKeyUsage explicitly contains serverAuth; a missing EKU fails (Apple ExtendedKeyUsage, errSecInvalidExtendedKeyUsage)."
                : "Leaves issued after 2019-06-30 under custom anchors must carry extKeyUsage with serverAuth (Apple, HT210176; errSecInvalidExtendedKeyUsage)."
        case .ekuAbsentAllowed:
            "No extKeyUsage: leaves issued before 2019-07-01 under custom anchors are not required to carry one (Apple HT210176)."
        case .ekuLacks(let purpose, let present):
            "extKeyUsage (\(present.joined(separator: ", "))) does not include \(purpose) (RFC 5280 4.2.1.12; Apple ExtendedKeyUsage, errSecInvalidExtendedKeyUsage)."
        case .caEKUAllows:
            "An issuer's extKeyUsage, when present, must include the purpose or anyExtendedKeyUsage (Apple ExtendedKeyUsage)."
        case .caEKULacks(let purpose, let present):
            "This issuer's extKeyUsage (\(present.joined(separator: ", "))) excludes \(purpose), which constrains everything below it (Apple ExtendedKeyUsage, errSecInvalidExtendedKeyUsage)."
        case .ekuNotChecked:
            "Basic X.509 does not check extended key usage (SecPolicyCreateBasicX509)."
        case .ekuDeviceAnchorExempt:
            "The path ends at an anchor the device trusts (a configuration profile's root, trusted in Settings), and Apple's strict rule that the leaf's extKeyUsage name serverAuth explicitly (ServerAuthEKU) skips such chains. The looser rule still holds: an extKeyUsage, when present, must include serverAuth or anyExtendedKeyUsage (Apple ExtendedKeyUsage)."
        case .noNameConstraints:
            "No certificate on the path carries nameConstraints."
        case .withinNameConstraints(let count):
            "Subject and subjectAltName entries fall within the \(count) constraint set\(count == 1 ? "" : "s") above (RFC 5280 4.2.1.10)."
        case .nameConstraintViolated(_, let reason):
            "\(reason) (RFC 5280 4.2.1.10; Apple NameConstraints, errSecInvalidName)."
        case .policySet(let p):
            p.isEmpty
                ? "Policy processing (RFC 5280 6.1) with Apple's inputs (any policy acceptable, explicit policy not required, mapping and anyPolicy allowed) leaves no policy valid for every certificate of the path; that is acceptable because no CA required an explicit policy (RFC 5280 4.2.1.11)."
                : "Policy processing (RFC 5280 6.1) with Apple's inputs (any policy acceptable, explicit policy not required, mapping and anyPolicy allowed) leaves these policies valid from the anchor down to the leaf, after any policyMappings; anyPolicy means every policy."
        case .policyFailed(.explicitPolicyRequired(let index)):
            "A requireExplicitPolicy count ran out (at certificate \(index)) while no certificate policy was valid for the whole path, so the path is rejected (RFC 5280 4.2.1.11, 6.1.3 (f), 6.1.5; Apple PolicyConstraints, errSecInvalidPolicyIdentifiers)."
        case .policyFailed(.anyPolicyMapped(let index)):
            "Certificate \(index)'s policyMappings names anyPolicy as an issuer or subject domain policy, which RFC 5280 forbids (4.2.1.5, 6.1.4 (a); Apple PolicyConstraints, errSecInvalidPolicyIdentifiers)."
        case .policyFailed(.tooLarge(let limit)):
            "The certificates' policies and mappings need more than \(limit) units of work to process; trustx stops there rather than let a crafted chain consume unbounded time (Apple PolicyConstraints, errSecInvalidPolicyIdentifiers)."
        case .nameConstraintFormUnsupported(let form):
            "This CA's critical nameConstraints constrains \(form) names. Apple processes constraints on rfc822Name, dNSName, directoryName, URI and iPAddress only, and RFC 5280 4.2.1.10 lets an application that cannot process a critical constraint reject the certificate: trustd does, whatever the names below (Apple NameConstraints, errSecInvalidName)."
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
        case .nonCompliant(let d):
            "\(d). Apple reports the certificate as not standards compliant."
        case .emptySubject:
            "A CA, or a leaf without a critical subjectAltName, needs a non-empty subject (RFC 5280 4.1.2.6; Apple NonEmptySubject, errSecInvalidSubjectName)."
        case .keyIdentifierMismatch:
            "The authorityKeyIdentifier names a different key than the issuer's subjectKeyIdentifier (Apple IdLinkage, errSecInvalidIDLinkage)."
        case .anchoredAt(let cls, let name):
            switch cls {
            case .system: "The path ends at \(name), a root of the system trust store."
            case .custom:
                "The path ends at \(name), one of the custom anchors the app set (SecTrustSetAnchorCertificates). Any certificate can be an anchor; processing stops there."
            case .device:
                "The path ends at \(name), a custom anchor the device trusts: installed by a configuration profile and trusted in Settings (trustd's user anchor source). Processing stops there, and Apple relaxes the serverAuth, lifetime-maximum, key-size and signature-hash rules for it."
            }
        case .selfSignedNotTrusted(let name):
            "The path ends at the self-signed \(name), which is neither a custom anchor nor a trusted system root (Apple AnchorTrusted, errSecNotTrusted)."
        case .noAnchor:
            "The path does not reach a trusted anchor."
        case .hostMatched:
            "A subjectAltName entry matches the requested host (Apple SSLHostname; RFC 6125)."
        case .hostMismatch(_, let explanation):
            "\(explanation) (Apple SSLHostname, errSecHostNameMismatch)."
        case .hostNotChecked(let reason):
            reason
        case .hostIgnored(_, let wouldMatch, let explanation):
            "SecPolicyCreateBasicX509() has no host-name check, so the app's host plays no part: any certificate chaining to an anchor is accepted for any server. Under SecPolicyCreateSSL this host would \(wouldMatch ? "" : "not ")have matched: \(explanation)."
        case .keySizeOK:
            "Apple's SSL policy requires RSA keys of at least 2048 bits and EC keys of at least 256 bits on every certificate (Apple KeySize)."
        case .keyTooSmall(let label, let bits, let min):
            "\(label) \(bits)-bit keys are below Apple's SSL minimum of \(min) bits for every certificate on the path (Apple KeySize, errSecUnsupportedKeySize)."
        case .keyWeak(let label, let bits, let min):
            "\(label) \(bits)-bit keys are below the minimum of \(min) for any policy (Apple WeakKeySize, errSecUnsupportedKeySize; fatal)."
        case .keyUnknown(let label):
            "The size of this \(label) key cannot be determined."
        case .keySizeDeviceAnchorExempt(let label, let bits, let min):
            "Apple skips the SSL key-size minimum (\(min) bits for \(label)) when the leaf itself is a device-trusted anchor (KeySize); the \(bits)-bit key still meets the minimum for any policy (WeakKeySize)."
        case .signatureAlgorithmOK:
            "The signature uses a SHA-2 (or stronger) hash (Apple SignatureHashAlgorithms)."
        case .selfSignedHashExempt:
            "The hash of a self-signed certificate's own signature is not relied upon, so weak hashes are allowed there."
        case .sha1Signature:
            "Apple's SSL policy rejects SHA-1 signatures on every certificate except self-signed ones (Apple SignatureHashAlgorithms, errSecInvalidDigestAlgorithm)."
        case .weakSignature:
            "MD2, MD4 and MD5 signatures are rejected under every policy (Apple WeakSignature, errSecInvalidDigestAlgorithm; fatal)."
        case .signatureHashDeviceAnchorExempt:
            "Apple does not judge the hash of the signature on an anchor the device trusts, self-signed or not (SignatureHashAlgorithms); MD2, MD4 and MD5 would still be rejected (WeakSignature)."
        case .periodWithin(_, _, let rule), .periodTooLong(_, _, let rule):
            "\(rule) (Apple ValidityPeriodMaximums, errSecCertificateValidityPeriodTooLong)."
        case .periodNoMaximum(let reason):
            reason
        case .periodDeviceAnchorExempt:
            "Apple applies no lifetime maximum to a leaf that is itself an anchor the device trusts (ValidityPeriodMaximums); a leaf below a device-trusted CA keeps the 825-day maximum."
        case .ctNotRequired(let reason):
            reason
        case .ctSatisfied, .ctMissing:
            "Chains to system roots need Signed Certificate Timestamps from distinct logs: 2 for leaves valid at most 180 days, 3 otherwise when embedded, or 2 delivered in the TLS handshake or OCSP response (Apple's Certificate Transparency policy; SystemTrustedCTRequired, errSecVerifyActionFailed). trustx counts SCTs by log; it does not verify their signatures or Apple's log list."
        case .notRevoked(let issuer):
            "A current CRL signed by \(issuer) does not list this certificate's serial number (RFC 5280 6.3)."
        case .certificateRevoked(_, let source):
            "\(source) says this certificate is revoked (RFC 5280 6.3, RFC 6960; Apple Revocation, errSecCertificateRevoked; fatal)."
        case .ocspGood(let signer):
            "An OCSP response (stapled by the server, or fetched with --revocation), signed by \(signer), matches this certificate and says good, and the evaluation time lies within its thisUpdate..nextUpdate (RFC 6960 3.2, 4.2.2.2)."
        case .revocationNotChecked(let reason):
            reason
        case .pinMatched(let pin):
            "A certificate of the built chain has SPKI SHA-256 sha256//\(pin); pins are checked after evaluation passed, on the built chain."
        case .pinNotMatched(let count):
            "None of the \(count) pin\(count == 1 ? "" : "s") matches the SPKI SHA-256 of any certificate in the built chain; the app's delegate cancels the challenge (URLError -999)."
        case .pinNotChecked:
            "Pins are only meaningful after normal evaluation passes; checking them instead of evaluation is a classic mistake."
        case .noPins:
            "No SPKI pins are configured."
        case .signatureKeyRefused(let reason):
            "\(reason). The key is refused without verifying, so that a certificate set cannot make each signature check expensive; the path through this issuer is discarded."
        case .budgetExhausted(let budget, _):
            Finding.budgetDetail(budget)
        case .ats(let f): f.detail
        case .pinnedDomains(let f): f.detail
        }
    }

    /// Why running out of `budget` makes the certificate set suspicious.
    static func budgetDetail(_ budget: BudgetKind) -> String {
        let verdict =
            "Evaluation ends here, not trusted: trustx bounds the work of one evaluation whatever it is sent, as Apple's trustd bounds path building (MissingIntermediate, errSecCreateChainFailed)."
        return switch budget {
        case .signatureChecks:
            "Real chains need a few signature checks; this certificate set offers so many same-name issuers that path building kept asking for more, which is how a sender makes a verifier spend its time on public-key operations. \(verdict)"
        case .candidateIssuers:
            "Real chains offer one or two issuers per certificate; this set offers so many candidates under the same names that trying them all would take unbounded time. \(verdict)"
        case .paths:
            "Real chains build one or a few paths; this set's cross-signed certificates combine into more candidate paths than any deployment needs, each of which would be checked in full. \(verdict)"
        case .nameConstraintComparisons:
            "Comparing every name against every name-constraint subtree, on every path, would take more comparisons than real constrained CAs ever need: many subjectAltNames under many subtrees is a known way to make verifiers work quadratically. \(verdict)"
        case .time:
            "The caller's deadline passed before evaluation finished; a certificate set that takes this long is either pathological or hostile. \(verdict)"
        }
    }

    /// `1.5 s`, for deadlines given in milliseconds.
    static func seconds(milliseconds: Int) -> String {
        "\(milliseconds / 1000).\(milliseconds % 1000 / 100) s"
    }
}
