import ATSModel
import TrustX509

/// The five ATS steps, run once on the chosen path: ATS's requirements are the TLS layer's, not
/// trustd's, so they do not take part in choosing a path (NSPinnedDomains, which is trustd's,
/// runs with the path checks instead).
enum ATSChecks {
    /// The TLS 1.3 suites ATS offers.
    static let tls13Suites: Set<UInt16> = [0x1301, 0x1302, 0x1303]
    /// ECDHE_ECDSA and ECDHE_RSA with AES-256-GCM, AES-128-GCM, ChaCha20-Poly1305, AES-256-CBC-SHA
    /// and AES-128-CBC-SHA.
    static let forwardSecretSuites: Set<UInt16> = [
        0xC02C, 0xC02B, 0xCCA9, 0xC00A, 0xC009, 0xC030, 0xC02F, 0xCCA8, 0xC014, 0xC013,
    ]
    /// RSA key transport with AES-256-GCM, AES-128-GCM, AES-256-CBC-SHA and AES-128-CBC-SHA, added
    /// when NSExceptionRequiresForwardSecrecy is NO.
    static let compatibilitySuites: Set<UInt16> = [0x009D, 0x009C, 0x0035, 0x002F]

    /// The host whose policy applies: the SSL policy's, else the one Basic X.509 ignores.
    static func host(_ settings: TrustSettings) -> String? {
        settings.policy.host ?? settings.hostIgnoredByPolicy
    }

    /// Appends the ATS steps for `path` under `ats`, resolved for the settings' host.
    static func run(
        path: BuiltPath, settings: TrustSettings, ats: ATSSettings, policy: ATSHostPolicy, into steps: inout [Step]
    ) {
        let connectionSteps: [StepID] = [.atsTLSVersion, .atsCipher, .atsForwardSecrecy]
        let certificateSteps: [StepID] = [.atsKeySize, .atsSignatureHash]
        if ats.scheme == .http {
            let host = ATSChecks.host(settings) ?? "the host"
            if policy.enforced && !policy.allowsInsecureHTTP {
                steps.append(Step(.atsTLSVersion, nil, .failed, .ats(.cleartextBlocked(host: host))))
                let why = "URLSession refuses the http:// URL before connecting"
                for id in connectionSteps.dropFirst() + certificateSteps {
                    steps.append(Step(id, nil, .skipped(why), .ats(.cleartextNotChecked)))
                }
            } else {
                let reason =
                    policy.enforced
                    ? "NSExceptionAllowsInsecureHTTPLoads on \(policy.matchedException ?? "the entry")" : policy.reason
                steps.append(Step(.atsTLSVersion, nil, .passed, .ats(.cleartextAllowed(reason: reason))))
                let why = "the app loads http:// in cleartext, with no TLS"
                for id in connectionSteps.dropFirst() + certificateSteps {
                    steps.append(Step(id, nil, .skipped(why), .ats(.cleartextNotChecked)))
                }
            }
            return
        }
        guard policy.enforced else {
            for id in connectionSteps + certificateSteps {
                steps.append(Step(id, nil, .skipped(policy.reason), .ats(.exempt(reason: policy.reason))))
            }
            return
        }
        if let n = settings.negotiated {
            connection(n, policy: policy, into: &steps)
        } else {
            let why = "no connection: the chain came from files"
            for id in connectionSteps { steps.append(Step(id, nil, .skipped(why), .ats(.noConnection))) }
        }
        keySizes(path, into: &steps)
        hashes(path, into: &steps)
    }

    static func connection(_ n: NegotiatedTLS, policy: ATSHostPolicy, into steps: inout [Step]) {
        if n.version >= policy.minimumTLSVersion {
            steps.append(
                Step(
                    .atsTLSVersion, nil, .passed,
                    .ats(.versionOK(version: n.version, minimum: policy.minimumTLSVersion))))
        } else {
            steps.append(
                Step(
                    .atsTLSVersion, nil, .failed,
                    .ats(.versionTooLow(version: n.version, minimum: policy.minimumTLSVersion))))
        }
        let name = n.cipherName
        let forwardSecret = n.version == .tls1_3 || forwardSecretSuites.contains(n.cipherSuite) || name.contains("DHE")
        if !policy.restrictsCipherSuites {
            steps.append(Step(.atsCipher, nil, .notApplicable, .ats(.cipherUnrestricted(name: name))))
        } else {
            var allowed = tls13Suites.union(forwardSecretSuites)
            if !policy.requiresForwardSecrecy { allowed.formUnion(compatibilitySuites) }
            if allowed.contains(n.cipherSuite) {
                steps.append(Step(.atsCipher, nil, .passed, .ats(.cipherOK(name: name))))
            } else {
                steps.append(
                    Step(
                        .atsCipher, nil, .failed,
                        .ats(.cipherRefused(name: name, forwardSecrecyRequired: policy.requiresForwardSecrecy))))
            }
        }
        if !policy.requiresForwardSecrecy {
            steps.append(
                Step(
                    .atsForwardSecrecy, nil, .notApplicable,
                    .ats(.forwardSecrecyNotRequired(name: name, present: forwardSecret))))
        } else if forwardSecret {
            steps.append(Step(.atsForwardSecrecy, nil, .passed, .ats(.forwardSecrecyOK(name: name, group: n.group))))
        } else {
            steps.append(Step(.atsForwardSecrecy, nil, .failed, .ats(.forwardSecrecyMissing(name: name))))
        }
    }

    /// RSA >= 2048 and elliptic-curve >= 256 bits, on every certificate of the path.
    static func keySizes(_ path: BuiltPath, into steps: inout [Step]) {
        for (i, cert) in path.certificates.enumerated() {
            let key = cert.publicKey
            let label = key.type.label
            let minimum: Int
            switch key.type {
            case .rsa: minimum = 2048
            case .ec, .ed25519, .ed448: minimum = 256
            case .dsa, .unknown:
                steps.append(Step(.atsKeySize, i, .failed, .ats(.keyTypeRefused(label: label, leaf: i == 0))))
                continue
            }
            // Ed25519 keys are 256-bit curve points; the key reader reports no size for them.
            let bits =
                switch key.type {
                case .ed25519: max(key.bits, 256)
                case .ed448: max(key.bits, 448)
                default: key.bits
                }
            let finding: ATSFinding =
                bits >= minimum
                ? .keySizeOK(label: label, bits: bits, minimum: minimum, leaf: i == 0)
                : .keyTooSmall(label: label, bits: bits, minimum: minimum, leaf: i == 0)
            steps.append(Step(.atsKeySize, i, bits >= minimum ? .passed : .failed, .ats(finding)))
        }
    }

    /// SHA-256 or stronger (or EdDSA) on every signature of the path but a self-signed anchor's own.
    static func hashes(_ path: BuiltPath, into steps: inout [Step]) {
        let last = path.certificates.count - 1
        for (i, cert) in path.certificates.enumerated() {
            let name = cert.signatureAlgorithm.name
            if i == last && cert.isSelfIssued && (path.isAnchored || path.endsSelfSigned) && i > 0 {
                steps.append(Step(.atsSignatureHash, i, .notApplicable, .ats(.hashSelfSignedAnchor(name: name))))
                continue
            }
            var strong = false
            if let scheme = SignatureScheme(cert.signatureAlgorithm) {
                switch scheme.family {
                case .ed25519, .ed448: strong = true
                default: strong = [.sha256, .sha384, .sha512].contains(scheme.hash)
                }
            }
            let finding: ATSFinding =
                strong ? .hashOK(name: name, leaf: i == 0) : .hashTooWeak(name: name, leaf: i == 0)
            steps.append(Step(.atsSignatureHash, i, strong ? .passed : .failed, .ats(finding)))
        }
    }
}
