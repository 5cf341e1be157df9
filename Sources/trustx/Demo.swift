import TrustCore

/// What `trustx` with no arguments shows until the interactive explorer exists: a PKI built in
/// memory, its full evaluation, and how a few settings change the verdict.
enum Demo {
    /// The chain a server would present (leaf, intermediate) and the root to anchor at.
    struct PKI {
        var leaf: Certificate
        var intermediate: Certificate
        var root: Certificate
    }

    static let host = "www.example.test"

    /// Builds a P-256 root, intermediate and leaf for `host`, valid around `now`.
    static func makePKI(now: Timestamp) throws(BuilderError) -> PKI {
        let day: Int64 = 86_400
        let start = now.adding(seconds: -day)
        let rootKey = try KeyPair.generate(.ecP256)
        var root = CertificateBuilder(
            subject: NameBuilder([.organization("trustx demo"), .commonName("trustx Demo Root CA")]),
            publicKey: rootKey, notBefore: start, notAfter: now.adding(seconds: 3650 * day))
        root.basicConstraints = .init(isCA: true)
        root.keyUsage = .init([.keyCertSign, .cRLSign])
        let rootCert = try root.selfSign(key: rootKey)

        let intermediateKey = try KeyPair.generate(.ecP256)
        var intermediate = CertificateBuilder(
            subject: NameBuilder([.organization("trustx demo"), .commonName("trustx Demo Intermediate CA")]),
            publicKey: intermediateKey, notBefore: start, notAfter: now.adding(seconds: 1825 * day))
        intermediate.basicConstraints = .init(isCA: true, pathLength: 0)
        intermediate.keyUsage = .init([.keyCertSign, .cRLSign])
        let intermediateCert = try intermediate.sign(issuerKey: rootKey, issuer: rootCert)

        let leafKey = try KeyPair.generate(.ecP256)
        // 90 days: inside Apple's 825-day maximum for custom anchors.
        var leaf = CertificateBuilder(
            subject: NameBuilder(commonName: host), publicKey: leafKey, notBefore: start,
            notAfter: now.adding(seconds: 90 * day))
        leaf.basicConstraints = .init(isCA: false, critical: false)
        leaf.keyUsage = .init([.digitalSignature])
        leaf.extendedKeyUsage = .init([.serverAuth])
        leaf.subjectAltNames = .dns(host)
        let leafCert = try leaf.sign(issuerKey: intermediateKey, issuer: intermediateCert)
        return PKI(leaf: leafCert, intermediate: intermediateCert, root: rootCert)
    }

    /// The demonstration's text, or nil when the PKI could not be built.
    static func render(now: Timestamp, options: TextReport.Options) -> String? {
        guard let pki = try? makePKI(now: now) else { return nil }
        let chain = [pki.leaf, pki.intermediate]
        let evaluator = Evaluator()
        // No system store: the demonstration must not depend on the machine's roots.
        func settings(anchors: [Certificate] = [pki.root], policy: TrustPolicy = .ssl(host: host), at: Timestamp? = nil)
            -> TrustSettings
        {
            TrustSettings(anchors: anchors, systemStore: nil, policy: policy, time: at ?? now)
        }
        guard let main = evaluator.evaluate(chain: chain, settings: settings()) else { return nil }
        let later = now.adding(seconds: 365 * 86_400)
        let variations: [(String, TrustSettings)] = [
            ("--host example.test", settings(policy: .ssl(host: "example.test"))),
            ("no --anchor", settings(anchors: [])),
            ("--at \(later.rfc3339)", settings(at: later)),
            // Apple accepts any certificate as an anchor, the leaf included.
            ("--anchor leaf.pem", settings(anchors: [pki.leaf])),
            ("--policy basic (no host check)", settings(policy: .basicX509)),
        ]
        let pass = TextReport.symbol(for: .passed, unicode: options.unicode)
        let fail = TextReport.symbol(for: .failed, unicode: options.unicode)
        let arrow = options.unicode ? "→" : "->"
        var out = "A demonstration on a PKI built just now in memory,\n"
        out += "  trustx Demo Root CA \(arrow) trustx Demo Intermediate CA \(arrow) \(host),\n"
        out += "checked as\n"
        out += "  trustx check --chain leaf.pem intermediate.pem --anchor root.pem --host \(host)\n\n"
        out += TextReport.render(main, options: options)
        out += "\nWhat changes the verdict (same chain):\n"
        let width = variations.map { $0.0.count }.max() ?? 0
        for (label, s) in variations {
            guard let e = evaluator.evaluate(chain: chain, settings: s) else { continue }
            let v = e.verdict
            var line = "  " + label + String(repeating: " ", count: width - label.count) + "  "
            line += v.trusted ? "\(pass) trusted" : "\(fail) \(v.osstatusName) (\(v.osstatus))"
            if let url = v.urlError, let name = v.urlErrorName { line += ", \(name) (\(url))" }
            out += line + "\n"
        }
        out += "\nRun 'trustx check --help' to evaluate your own certificates.\n"
        return out
    }
}
