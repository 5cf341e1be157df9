import TrustCore

/// One way a code comes about: the trustx step (and Apple check) that reports it, or the
/// connection failure that leads to it.
struct ExplainCause: Sendable, Equatable {
    /// The step id (docs/steps.md) or `connection` for a connection failure.
    var step: String
    /// Apple's check key (SecPolicyChecks.list) where the step reports one.
    var check: String?
    /// The engine's OSStatus for this cause, where it is not the code explained itself (a
    /// URLError's or stream error's cause names the OSStatus behind it).
    var osstatus: Int?
    /// What goes wrong, in a few words.
    var text: String

    init(_ step: StepID, _ check: String?, _ text: String, osstatus: Int? = nil) {
        self.step = step.rawValue
        self.check = check
        self.osstatus = osstatus
        self.text = text
    }

    /// What iOS 26's larger ClientHello meets on the way to a server (docs/connecting.md, "The
    /// second hello"): a failure of those devices only, which trustx's own handshake never meets
    /// and the report's `apple hello` line shows.
    init(appleHello text: String) {
        step = "apple-hello"
        check = nil
        osstatus = nil
        self.text = text
    }

    /// The connection failures (`ConnectionReport.Failure.Kind`) that end in a code, as one cause.
    init(connection kinds: [ConnectionReport.Failure.Kind]) {
        step = "connection"
        check = nil
        osstatus = nil
        text =
            "the connection or handshake failed before any evaluation: "
            + kinds.map(\.rawValue).joined(separator: ", ")
    }
}

/// The causes of each code, most common first. The OSStatus rows are docs/steps.md's findings
/// tables (a test holds the two to each other, and the page is held to the engine); the URL
/// loading causes of a connection failure come from `ConnectionReport.Failure.Kind.urlError`.
enum ExplainCauses {
    /// The engine's OSStatus codes and ATS codes: each step and Apple check that reports them.
    static let osstatus: [Int: [ExplainCause]] = [
        -25318: [
            ExplainCause(
                .chain, "MissingIntermediate",
                "an issuer is neither sent by the server nor an anchor, and AIA did not fetch it (missing intermediate)"
            ),
            ExplainCause(.budget, "MissingIntermediate", "path building ran out of its budget"),
        ],
        -67843: [
            ExplainCause(
                .anchor, "AnchorTrusted", "the chain ends at a root that is not trusted (self-signed or private CA)"),
            ExplainCause(
                .revocation, "GrayListedKey",
                "a CA Apple trusts only for certificates issued within dates issued this one outside them (overridable entry)"
            ),
            ExplainCause(
                .revocation, "GrayListedLeaf",
                "an SSL chain was issued after the cut-off date of a CA Apple constrains (overridable entry)"),
            ExplainCause(
                .revocation, "CTRequired",
                "a CA's date constraint has passed, so Apple requires Certificate Transparency, and the chain has none"),
        ],
        -67602: [ExplainCause(.hostname, "SSLHostname", "the host matches no subjectAltName entry of the leaf")],
        -67818: [
            ExplainCause(
                .validity, "TemporalValidity", "a certificate has expired or is not yet valid (check the clock)"),
            ExplainCause(
                .validity, "TemporalValidity",
                "in Safari and Apple's other programs only: the root has less than 60 days left, as trustd judges a system root 60 days early for them while apps trust it to its notAfter (check --client safari; Security-61901 enables this on Apple-internal builds only, docs/steps.md#validity)"
            ),
        ],
        -67901: [
            ExplainCause(
                .validityPeriodMaximum, "ValidityPeriodMaximums", "the leaf's lifetime exceeds Apple's maximum")
        ],
        -67825: [
            ExplainCause(
                .certificateTransparency, "SystemTrustedCTRequired",
                "not enough Signed Certificate Timestamps for a publicly trusted leaf")
        ],
        -67609: [
            ExplainCause(
                .extendedKeyUsage, "ExtendedKeyUsage", "a certificate's extended key usage lacks serverAuth")
        ],
        -67608: [ExplainCause(.keyUsage, "KeyUsage", "a key usage does not allow what the certificate is used for")],
        -67735: [
            ExplainCause(.keySize, "KeySize", "a key is smaller than Apple's minimum"),
            ExplainCause(.keySize, "WeakKeySize", "a key is too weak (or of an unknown type) to be used at all"),
        ],
        -67815: [
            ExplainCause(.signatureAlgorithm, "SignatureHashAlgorithms", "a certificate is signed with SHA-1"),
            ExplainCause(.signatureAlgorithm, "WeakSignature", "a certificate is signed with MD5 or MD2"),
        ],
        -67604: [ExplainCause(.basicConstraints, "BasicConstraints", "an issuer has no basicConstraints extension")],
        -67605: [
            ExplainCause(
                .basicConstraints, "BasicConstraintsCA", "an issuer is not a CA (cA is FALSE), or the leaf is one")
        ],
        -67611: [
            ExplainCause(.basicConstraints, "BasicConstraintsPathLen", "a CA's pathLenConstraint is exceeded"),
            ExplainCause(.systemPinning, "ChainLength", "a system-pinned host's chain has the wrong length"),
        ],
        -67603: [
            ExplainCause(
                .criticalExtensions, "CriticalExtensions", "a certificate has a critical extension not understood"),
            ExplainCause(.compliance, "CriticalExtensions", "a certificate is not standards compliant"),
            ExplainCause(.keyUsage, "CriticalExtensions", "webpki: a key usage breaks RFC 5280"),
            ExplainCause(
                .extendedKeyUsage, "CriticalExtensions",
                "webpki: an extended key usage breaks the CA/Browser Forum rules"),
            ExplainCause(.keySize, "CriticalExtensions", "webpki: an RSA modulus that is not a whole number of bytes"),
            ExplainCause(
                .revocation, "CriticalExtensions", "webpki: the stapled OCSP response or the CRLs cannot be used"),
        ],
        -67689: [ExplainCause(.nameConstraints, "NameConstraints", "a name is outside a CA's name constraints")],
        -67835: [
            ExplainCause(
                .certificatePolicies, "PolicyConstraints",
                "the certificate policies do not satisfy the policy constraints"),
            ExplainCause(.systemPinning, "CertificatePolicy", "a system-pinned host's leaf lacks the required policy"),
        ],
        -67903: [ExplainCause(.compliance, "DuplicateExtension", "a certificate has the same extension twice")],
        -67618: [ExplainCause(.compliance, "UnparseableExtension", "a certificate's extension cannot be parsed")],
        -67655: [
            ExplainCause(.compliance, "NonEmptySubject", "a certificate's subject is empty without a critical SAN"),
            ExplainCause(
                .systemPinning, "IntermediateCountry", "a system-pinned host's intermediate has the wrong country"),
            ExplainCause(
                .systemPinning, "IntermediateOrganization",
                "a system-pinned host's intermediate has the wrong organization"),
            ExplainCause(
                .systemPinning, "SubjectOrganization", "a system-pinned host's leaf has the wrong organization"),
        ],
        -67610: [
            ExplainCause(
                .compliance, "IdLinkage", "an authorityKeyIdentifier does not match its issuer's subjectKeyIdentifier")
        ],
        -67820: [
            ExplainCause(
                .revocation, "Revocation",
                "a certificate is revoked (OCSP or CRL), or a CA Apple trusts only for certificates issued within dates issued it outside them"
            ),
            ExplainCause(
                .revocation, "BlackListedLeaf",
                "an SSL chain was issued after the cut-off date of a root Apple distrusts by issuance date (Entrust, AffirmTrust and Camerfirma after 2024-11-15)"
            ),
        ],
        -67635: [
            ExplainCause(
                .revocation, "RevocationResponseRequired", "revocation was required and no positive answer came")
        ],
        -67612: [
            ExplainCause(
                .systemPinning, "AnchorApple", "a system-pinned (Apple) host's chain does not end at an Apple root"),
            ExplainCause(
                .systemPinning, "AnchorSHA256", "a system-pinned host's chain ends at a root its pins do not list"),
        ],
        -67880: [
            ExplainCause(
                .systemPinning, "IntermediateMarkerOid", "a system-pinned host's intermediate lacks its marker"),
            ExplainCause(.systemPinning, "LeafMarkerOid", "a system-pinned host's leaf lacks its marker"),
            ExplainCause(
                .systemPinning, "LeafMarkersProdAndQA", "a system-pinned host's leaf lacks its production marker"),
        ],
        -9886: [
            ExplainCause(.pinnedDomains, "LeafSPKISHA256", "NSPinnedDomains: no leaf key matches the pins"),
            ExplainCause(.pinnedDomains, "CAspkiSHA256", "NSPinnedDomains: no CA key matches the pins"),
        ],
        -9881: [
            ExplainCause(.atsTLSVersion, nil, "ATS: the server negotiated a TLS version below the minimum (TLS 1.2)")
        ],
        -9882: [
            ExplainCause(.atsCipher, nil, "ATS: no cipher suite in ATS's list"),
            ExplainCause(.atsForwardSecrecy, nil, "ATS: the cipher suite has no forward secrecy"),
        ],
        -9883: [ExplainCause(.atsKeySize, nil, "ATS: a certificate's key is below ATS's minimum (RSA 2048, ECC 256)")],
        -9884: [ExplainCause(.atsSignatureHash, nil, "ATS: the leaf is signed with a hash below SHA-256")],
        -9885: [ExplainCause(.atsSignatureHash, nil, "ATS: a CA certificate is signed with a hash below SHA-256")],
    ]

    /// Each Apple check key the causes name, with the OSStatus it gives (one each).
    static let checkCodes: [String: Int] = {
        var out: [String: Int] = [:]
        for (code, causes) in osstatus {
            for cause in causes { if let check = cause.check { out[check] = code } }
        }
        return out
    }()

    /// Codes the engine names but reports as another: the steps that meet the same fault.
    static let reportedAsAnother: [Int: [ExplainCause]] = [
        -67819: [
            ExplainCause(
                .validity, "TemporalValidity",
                "a certificate is not yet valid; Apple's evaluation reports it as expired", osstatus: -67818)
        ],
        -67688: [
            ExplainCause(
                .signature, nil,
                "a signature does not verify: path building discards that issuer, and the path fails as a missing intermediate",
                osstatus: -25318)
        ],
        -67811: [
            ExplainCause(
                .signature, nil,
                "a public key cannot be used to verify (unsupported or refused): path building discards that issuer",
                osstatus: -25318)
        ],
    ]

    /// The trust failures behind a generic rejection, most common first: what -1202, -999 and
    /// SecureTransport's chain codes most often stand for.
    static let commonTrustFailures = [-25318, -67843, -67602, -67818]

    /// Stream errors (SecureTransport codes, `[3:-98xx]`) and the OSStatus codes whose causes
    /// produce them.
    static let streamRelated: [Int: [Int]] = [
        -9807: commonTrustFailures,  // errSSLXCertChainInvalid
        -9808: commonTrustFailures,  // errSSLBadCert
        -9812: [-67843],  // errSSLUnknownRootCert
        -9813: [-25318, -67843],  // errSSLNoRootCert
        -9814: [-67818],  // errSSLCertExpired
        -9815: [-67818],  // errSSLCertNotYetValid
        -9843: [-67602],  // errSSLHostNameMismatch
        -9880: [-9881, -9882, -9883, -9884, -9885],  // errSSLATSViolation
        -9886: [],
    ]

    /// Connection failures by SecureTransport code: the alert or closure each stands for.
    static let streamConnection: [Int: [ConnectionReport.Failure.Kind]] = [
        -9836: [.noCommonVersion],  // errSSLPeerProtocolVersion
        -9824: [.noCommonCipher, .tlsAlert],  // errSSLPeerHandshakeFail
        -9858: [.noCommonCipher, .tlsAlert],  // errSSLHandshakeFail
        -9806: [.closedDuringHandshake],  // errSSLClosedAbort
        -9805: [.closedDuringHandshake],  // errSSLClosedGraceful
        -9800: [.malformedHandshake, .notTLS],  // errSSLProtocol
        -9801: [.noCommonCipher],  // errSSLNegotiation
        -9863: [.clientCertificateRequired],  // errSSLCertificateRequired
        -9825: [.clientCertificateRejected],  // errSSLPeerBadCert
        -9829: [.clientCertificateRejected],  // errSSLPeerCertUnknown
    ]

    /// What a device on iOS, iPadOS, macOS or visionOS 26 reports when its post-quantum
    /// ClientHello (about 1,520 bytes, X25519MLKEM768's 1,216-byte share) meets a middlebox or
    /// server that other clients pass, by URL loading code; the lab's ios26-hello lessons.
    static let appleHelloCauses: [Int: String] = [
        -1005:
            "on the 26 releases only: a load balancer or firewall resets a ClientHello over some size, and the post-quantum key share makes the device's about 1,520 bytes; other clients pass",
        -1001:
            "on the 26 releases only: a firewall reads the ClientHello from the first TCP segment and drops one split across two, as the device's larger hello is on a 1,500-byte path; the device waits",
        -1200:
            "on the 26 releases only: the server answers the device's hello with a HelloRetryRequest for a group whose key share the hello carried (x25519), and the device aborts (RFC 8446 4.2.8)",
    ]

    /// The causes of a URL loading code.
    static func urlCauses(_ code: Int) -> [ExplainCause] {
        var out: [ExplainCause] = []
        switch code {
        case -1202:
            out = related(commonTrustFailures)
            out.append(
                ExplainCause(
                    .anchor, nil,
                    "any other failed step, when the app leaves trust to the system (no custom anchor, no pin)"))
        case -999:
            out = [
                ExplainCause(.pin, nil, "the app's delegate checked a pin that did not match, and cancelled"),
                ExplainCause(
                    .anchor, nil,
                    "the app's delegate evaluated with its own anchors and the evaluation failed (any step)"),
            ]
        case -1200:
            out = [
                ExplainCause(.atsTLSVersion, nil, "ATS: the TLS version is below the minimum", osstatus: -9881),
                ExplainCause(.atsCipher, nil, "ATS: no cipher suite in ATS's list", osstatus: -9882),
                ExplainCause(.atsForwardSecrecy, nil, "ATS: no forward secrecy", osstatus: -9882),
                ExplainCause(.pinnedDomains, nil, "NSPinnedDomains: no pinned key matched", osstatus: -9886),
                ExplainCause(.atsKeySize, nil, "SecTrust passed but ATS's key size minimum did not", osstatus: -9883),
                ExplainCause(
                    .atsSignatureHash, nil, "SecTrust passed but ATS's signature hash minimum did not", osstatus: -9884),
            ]
        case -1022:
            out = [ExplainCause(.atsTLSVersion, nil, "ATS refused an http:// URL before connecting")]
        case -1201, -1204: out = related(-67818)
        case -1203: out = related([-25318, -67843])
        default: break
        }
        let kinds = ConnectionReport.Failure.Kind.allCases.filter { $0.urlError == code }
        if !kinds.isEmpty { out.append(ExplainCause(connection: kinds)) }
        if let hello = appleHelloCauses[code] { out.append(ExplainCause(appleHello: hello)) }
        return out
    }

    /// The causes of an OSStatus, naming it: the rows of another code, reused for a code that
    /// stands for it.
    static func related(_ osstatus: Int) -> [ExplainCause] {
        (self.osstatus[osstatus] ?? []).map {
            var cause = $0
            cause.osstatus = osstatus
            return cause
        }
    }

    /// The causes of several OSStatus codes, ranked: each code's most common cause first (in the
    /// order of `codes`), then the others, so a rare cause of the first code (the budget) does
    /// not outrank the common cause of the next.
    static func related(_ codes: [Int]) -> [ExplainCause] {
        let each = codes.map { related($0) }
        return each.compactMap(\.first) + each.flatMap { $0.dropFirst() }
    }

    /// The causes of a SecureTransport (stream) code.
    static func streamCauses(_ code: Int) -> [ExplainCause] {
        var out = osstatus[code] ?? []
        out += related(streamRelated[code] ?? [])
        if code == -9802 { out += urlCauses(-1200).filter { $0.step != "connection" } }
        if let kinds = streamConnection[code] { out.append(ExplainCause(connection: kinds)) }
        return out
    }
}
