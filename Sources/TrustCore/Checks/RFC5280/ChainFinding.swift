import PathRules

/// What the `chain`, `signature` and `anchor` steps found (ChainCheck: what path building established).
enum ChainFinding: RuleFinding {
    case chainComplete(length: Int)
    case chainEndsSelfSigned(length: Int)
    /// No usable issuer: none named `issuer`, or `rejectedCandidates` so named whose keys do not
    /// verify the signature (`fetchedThroughAIA` when one of them came from the AIA URL).
    case issuerNotFound(issuer: String, rejectedCandidates: Int = 0, fetchedThroughAIA: Bool = false)
    case depthExceeded(limit: Int)
    case signatureValid(algorithm: String)
    case signatureInvalid(candidate: String)
    case signatureUnsupported(reason: String)
    case anchorSignatureNotChecked
    case anchoredAt(anchorClass: AnchorClass, name: String)
    case selfSignedNotTrusted(name: String)
    case noAnchor
    case signatureKeyRefused(reason: String)
    /// The path ends at a root the system store's maker took out of its store (Apple's removed roots).
    case removedRoot(name: String, note: String)
    /// The anchor is a CA trustd's Valid database constrains by issuance date (`revocation` applies it).
    case anchoredAtConstrainedRoot(anchorClass: AnchorClass, name: String, constraint: DateConstraint)

    var storage: Finding.Storage { .chain(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .issuerNotFound, .depthExceeded: AppleFailure("MissingIntermediate", .trust, -25318)
        case .selfSignedNotTrusted, .noAnchor, .removedRoot: AppleFailure("AnchorTrusted", .trust, -67843)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .chainComplete(let n): "Chain of \(n) certificate\(n == 1 ? "" : "s") built"
        case .chainEndsSelfSigned(let n): "Chain of \(n) ends at a self-signed certificate"
        case .issuerNotFound: "Issuer not found"
        case .depthExceeded(let limit): "Chain longer than \(limit) intermediates"
        case .signatureValid(let alg): "Signature verifies (\(alg))"
        case .signatureInvalid: "A candidate issuer's signature does not verify"
        case .signatureUnsupported: "Signature cannot be checked"
        case .anchorSignatureNotChecked: "Anchor taken as trusted, its signature not checked"
        case .anchoredAt(let cls, _):
            switch cls {
            case .system: "Anchored at a system root"
            case .custom: "Anchored at a custom anchor (app)"
            case .device: "Anchored at a custom anchor (device-trusted)"
            }
        case .selfSignedNotTrusted: "Self-signed certificate is not a trusted anchor"
        case .noAnchor: "No trusted anchor reached"
        case .signatureKeyRefused: "Candidate issuer's key refused before verification"
        case .removedRoot(_, let note): "Root not trusted: \(note)"
        case .anchoredAtConstrainedRoot(let cls, let name, let constraint):
            "\(ChainFinding.anchoredAt(anchorClass: cls, name: name).title), trusted only by issuance date (\(constraint.rule))"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .chainComplete:
            "Every certificate's issuer was found, up to a trusted anchor (RFC 5280 6.1; SecTrust path building)."
        case .chainEndsSelfSigned:
            "Issuers were found up to a self-signed certificate; whether that one is trusted is the anchor step."
        case .issuerNotFound(let issuer, 0, _):
            "No certificate named \(issuer) was presented, set as an anchor or found in the trust store. Apple reports MissingIntermediate (errSecCreateChainFailed); Apple's SSL policy would also try the AIA caIssuers URL."
        case .issuerNotFound(let issuer, let n, let fetched):
            "\(n == 1 ? "A certificate" : "\(n) certificates") named \(issuer) \(fetched ? "fetched from the AIA caIssuers URL" : "presented, set as an anchor or in the trust store") \(n == 1 ? "was" : "were") tried as issuer, but no candidate's key verifies this certificate's signature (see the signature step). Apple reports MissingIntermediate (errSecCreateChainFailed)\(fetched ? "." : "; Apple's SSL policy would also try the AIA caIssuers URL.")"
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
        case .signatureKeyRefused(let reason):
            "\(reason). The key is refused without verifying, so that a certificate set cannot make each signature check expensive; the path through this issuer is discarded."
        case .removedRoot(let name, let note):
            "The path ends at the self-signed \(name), \(note): it is not a system root there, so the chain is not trusted (Apple AnchorTrusted, errSecNotTrusted)."
        case .anchoredAtConstrainedRoot(let cls, let name, let constraint):
            "\(ChainFinding.anchoredAt(anchorClass: cls, name: name).detail) Apple trusts the certificates it issues only within a date constraint of trustd's Valid database (\(constraint.rule): \(constraint.provenance)); the revocation step applies it."
        }
    }
}
