import Foundation
import TrustCore
import TrustSupport
import TrustX509

/// Maps one x509-limbo testcase onto trustx settings and evaluates it (the `webpki` profile by default).
struct LimboRunner {
    static let version = "0.1.0"

    let evaluator = Evaluator()
    /// The rule profile (webpki for conformance runs; apple to compare engine versions).
    let profile: RuleProfile
    let now = Timestamp(secondsSinceEpoch: Int64(Date().timeIntervalSince1970))

    /// limbo's KnownEKUs, by name.
    static let purposes: [String: String] = [
        "anyExtendedKeyUsage": "2.5.29.37.0", "serverAuth": "1.3.6.1.5.5.7.3.1", "clientAuth": "1.3.6.1.5.5.7.3.2",
        "codeSigning": "1.3.6.1.5.5.7.3.3", "emailProtection": "1.3.6.1.5.5.7.3.4", "timeStamping": "1.3.6.1.5.5.7.3.8",
        "OCSPSigning": "1.3.6.1.5.5.7.3.9",
    ]

    /// x509-limbo's namespaces name the standard a case tests (D40): `webpki::` the CA/Browser
    /// Forum's Web PKI profile on top of RFC 5280, `online::` real Web PKI chains; the others
    /// (`rfc5280::`, `pathlen::`, `bettertls::`, ...) RFC 5280 path validation, where a CA in
    /// leaf position, a leaf without extKeyUsage or a Common Name outside the SAN is allowed.
    static func appliesBaselineRequirements(_ id: String) -> Bool {
        id.hasPrefix("webpki::") || id.hasPrefix("online::")
    }

    /// Decodes one PEM certificate.
    func certificate(_ pem: String) -> Result<Certificate, LimboDecodeError> {
        do {
            let certs = try CertificateLoader.decode(Array(pem.utf8), name: "pem")
            guard certs.count == 1 else {
                return .failure(LimboDecodeError(reason: "expected one certificate, found \(certs.count)"))
            }
            return .success(certs[0])
        } catch {
            return .failure(LimboDecodeError(reason: "\(error)"))
        }
    }

    func run(_ t: LimboTestcase, trace: Bool = false) -> (result: LimboVerdict, context: String) {
        var revocationLists: [RevocationList] = []
        for (i, pem) in (t.crls ?? []).enumerated() {
            do {
                revocationLists += try RevocationList.decodeAll(Array(pem.utf8))
            } catch {
                return (.failure, "CRL \(i) does not decode: \(error.reason)")
            }
        }
        if let names = t.signature_algorithms, !names.isEmpty {
            return (.skipped, "signature algorithm restrictions are not implemented")
        }
        // The policy: a DNS name as is, an IP literal as text (HostnameMatcher parses both forms).
        let policy: TrustPolicy
        switch t.expected_peer_name?.kind {
        case nil: policy = .ssl(host: nil)
        case "DNS", "IP": policy = .ssl(host: t.expected_peer_name!.value)
        default: return (.skipped, "peer name kind \(t.expected_peer_name!.kind) is not supported")
        }
        var purpose: OID? = nil
        if let ekus = t.extended_key_usage, !ekus.isEmpty {
            guard ekus.count == 1, let dotted = LimboRunner.purposes[ekus[0]], let oid = OID(dotted: dotted) else {
                return (.skipped, "extended key usage requirement \(ekus) is not supported")
            }
            purpose = oid
        } else if t.validation_kind == "CLIENT" {
            purpose = OID(dotted: "1.3.6.1.5.5.7.3.2")
        }
        var time = now
        if let text = t.validation_time {
            guard let parsed = Timestamp(rfc3339: text) else { return (.skipped, "unreadable validation_time \(text)") }
            time = parsed
        }

        let leaf: Certificate
        switch certificate(t.peer_certificate) {
        case .success(let c): leaf = c
        case .failure(let why): return (.failure, "peer certificate does not decode: \(why.reason)")
        }
        var notes: [String] = []
        var anchors: [Certificate] = []
        for (i, pem) in t.trusted_certs.enumerated() {
            switch certificate(pem) {
            case .success(let c): anchors.append(c)
            case .failure(let why): notes.append("trusted certificate \(i) ignored: \(why.reason)")
            }
        }
        var intermediates: [Certificate] = []
        for (i, pem) in t.untrusted_intermediates.enumerated() {
            switch certificate(pem) {
            case .success(let c): intermediates.append(c)
            case .failure(let why): notes.append("intermediate \(i) ignored: \(why.reason)")
            }
        }

        var settings = TrustSettings(
            anchors: anchors, anchorsOnly: true, systemStore: nil, policy: policy, time: time, profile: profile,
            maximumIntermediates: t.max_chain_depth, requiredLeafPurpose: purpose)
        settings.caBrowserForumRules = LimboRunner.appliesBaselineRequirements(t.id)
        settings.revocationLists = revocationLists

        let evaluation = evaluator.evaluate(leaf: leaf, presented: intermediates, settings: settings)
        if trace {
            var text = "\(evaluation.candidatePaths) candidate path(s); reported path:\n"
            for (i, cert) in evaluation.path.certificates.enumerated() { text += "  [\(i)] \(cert.subject)\n" }
            for step in evaluation.steps {
                text +=
                    "  \(step.id.rawValue) [\(step.certificate.map(String.init) ?? "-")] \(step.status.identifier): \(step.title) — \(step.detail)\n"
            }
            FileHandle.standardError.write(Data(text.utf8))
        }
        if !evaluation.verdict.trusted {
            var failed: [String] = []
            for step in evaluation.failures {
                var text = step.certificate.map { "[\($0)] \(step.title)" } ?? step.title
                if let specifics = step.finding.specifics { text += ": \(specifics)" }
                if !failed.contains(text) { failed.append(text) }
                if failed.count == 8 { break }
            }
            let code = "\(evaluation.verdict.osstatusName) (\(evaluation.verdict.osstatus))"
            return (.failure, ([code] + notes + failed).joined(separator: "; "))
        }
        // limbo's key_usage: the leaf's keyUsage, when present, must assert each listed bit.
        if let required = t.key_usage, !required.isEmpty, let ku = leaf.keyUsage {
            let missing = required.filter { name in
                guard let bit = KeyUsage.names.firstIndex(of: name) else { return true }
                return !ku.has(bit)
            }
            if !missing.isEmpty {
                return (.failure, "leaf keyUsage lacks \(missing.joined(separator: ", ")) (RFC 5280 4.2.1.3)")
            }
        }
        let path = evaluation.path.certificates.map(\.displayName).joined(separator: " -> ")
        return (.success, (notes + ["trusted: \(path)"]).joined(separator: "; "))
    }
}

/// Why a testcase's PEM did not decode.
struct LimboDecodeError: Error {
    var reason: String
}
