import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// The certificates of the badssl.com scenarios, made the lab's way: badssl.com's names and
/// shapes (docs/lab.md, "badssl.com: certificates"), fresh keys, and the lab's Library Test CA
/// at the top instead of badssl.com's public CA.
///
/// Like badssl.com, most servers send their leaf and "BadSSL Intermediate Certificate
/// Authority"; the wildcard leaf (`*.badssl.trustx.test`) and its P-256 key are shared, as
/// badssl.com shares its main leaf key. Every leaf carries EKU serverAuth (badssl.com's test
/// leaves have none, which Apple refuses under a custom anchor: the lab keeps each lesson to one
/// broken rule).
struct BadSSLPKI: Sendable {
    /// The lab domain the scenarios' hosts live under (`expired.badssl.trustx.test`).
    static let domain = "badssl.trustx.test"

    /// What each scenario made at once sends.
    var served: [String: LabServedChain]
    /// The known-bad roots, under badssl.com's subject names.
    var anchors: [LabAnchor: Certificate]
    /// The client CA client-cert-missing asks for, which issued no learner anything.
    var missingClientCA: Certificate
    /// Scenarios too slow to make at start-up (RSA keys, the 10,000-name leaf): each makes
    /// its chain when called (`LabDeferredServer` calls it for the first client).
    var deferred: [String: @Sendable () throws(BuilderError) -> LabServedChain]

    /// The scenarios whose leaf has an RSA key of its own, slow to make, and its size in bits.
    static let slowKeyBits = ["rsa2048": 2048, "rsa4096": 4096, "rsa8192": 8192]

    /// The host of badssl.com scenario `name` in the lab.
    static func host(_ name: String) -> String { "\(name).\(domain)" }

    /// badssl.com's subject for its certificates: `C=US, ST=California, L=San Francisco, O=BadSSL`
    /// and `CN=commonName` when given.
    static func badsslName(_ commonName: String?) -> NameBuilder {
        var attributes: [NameBuilder.Attribute] = [
            .country("US"), .state("California"), .locality("San Francisco"), .organization("BadSSL"),
        ]
        if let commonName { attributes.append(.commonName(commonName)) }
        return NameBuilder(attributes)
    }

    /// Builds every badssl.com certificate below `library` (the lab's Library Test CA).
    /// - Parameters:
    ///   - serverIPs: appended to every leaf's subjectAltName, for clients that dial an address.
    static func build(library: LabIssued, now: Timestamp, serverIPs: [String]) throws(BuilderError) -> BadSSLPKI {
        let day = LabPKI.day
        let caStart = now.adding(seconds: -30 * day)
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }

        func ca(
            _ name: NameBuilder, issuer: LabIssued?, signature: SignatureAlgorithm? = nil
        ) throws(BuilderError) -> LabIssued {
            let key = try KeyPair.generate(.ecP256)
            var b = CertificateBuilder(
                subject: name, publicKey: key, notBefore: caStart, notAfter: now.adding(seconds: 1825 * day))
            b.basicConstraints = .init(isCA: true)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            b.signatureAlgorithm = signature
            guard let issuer else { return LabIssued(certificate: try b.selfSign(key: key), key: key) }
            return LabIssued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
        }
        let intermediate = try ca(badsslName("BadSSL Intermediate Certificate Authority"), issuer: library)
        // sha1-intermediate: the same name, signed with SHA-1 (badssl.com's ca-sha1-intermediate).
        let sha1Intermediate = try ca(
            badsslName("BadSSL Intermediate Certificate Authority"), issuer: library, signature: .ecdsaWithSHA1)

        let wildcard = ["*.\(domain)", domain]
        let mainKey = try KeyPair.generate(.ecP256)
        let leafTemplate = LeafTemplate(ips: ips, now: now)

        var served: [String: LabServedChain] = [:]
        func serve(
            _ name: String, key: KeyPair = mainKey, names: [String]? = nil, commonName: String?? = nil,
            issuer: LabIssued? = nil, configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
        ) throws(BuilderError) {
            let issuing = issuer ?? intermediate
            let dnsNames = names ?? [host(name)]
            let leaf = try leafTemplate.leaf(
                key: key, dnsNames: dnsNames, commonName: commonName ?? dnsNames.first, issuer: issuing,
                configure: configure)
            served[name] = LabServedChain(chain: [leaf, issuing.certificate], key: key)
        }

        try serve("ecc256", names: wildcard)
        try serve("ecc384", key: try KeyPair.generate(.ecP384), names: wildcard)
        try serve("sha256", names: wildcard) { $0.signatureAlgorithm = .ecdsaWithSHA256 }
        try serve("sha384", names: wildcard) { $0.signatureAlgorithm = .ecdsaWithSHA384 }
        try serve("sha512", names: wildcard) { $0.signatureAlgorithm = .ecdsaWithSHA512 }
        // badssl.com signed these for 10 and 200 days: one expired before 2017, one after.
        try serve("sha1-2016", names: wildcard) { b in
            b.signatureAlgorithm = .ecdsaWithSHA1
            b.notAfter = b.notBefore.adding(seconds: 10 * day)
        }
        try serve("sha1-2017", names: wildcard) { b in
            b.signatureAlgorithm = .ecdsaWithSHA1
            b.notAfter = b.notBefore.adding(seconds: 200 * day)
        }
        // badssl.com's sha1 server presents its sha1-2016 certificate.
        served["sha1"] = served["sha1-2016"]
        try serve("sha1-intermediate", names: wildcard, issuer: sha1Intermediate)
        try serve("wrong.host", names: wildcard)
        try serve("pinning-test", names: wildcard)
        try serve("client-cert-missing", names: wildcard)

        try serve("1000-sans", names: [host("1000-sans")] + (2...1000).map { "wowmoarsans\($0).\(domain)" })
        try serve("no-common-name", commonName: .some(nil))
        try serve("no-subject") { b throws(BuilderError) in
            // An empty subject needs a critical subjectAltName (RFC 5280 4.1.2.6), as badssl.com's has.
            b.subject = NameBuilder([])
            b.subjectAltNames = .init([.dnsName(host("no-subject"))] + ips, critical: true)
        }
        try serve("xn--n1aae7f7o")
        try serve("extended-validation") { b in
            b.subject = NameBuilder([
                .country("US"), .state("California"), .locality("Mountain View"),
                .organization("Mozilla Corporation"), .commonName(host("extended-validation")),
            ])
            // badssl.com's policy OID, 1.3.1.1.1.1: no CA's EV policy.
            if let policy = OID(dotted: "1.3.1.1.1.1") { b.rawExtensions.append(.certificatePolicies([policy])) }
        }
        try serve("no-sct")

        // reversed-chain: badssl.com's nginx sends the intermediate first and proves possession of
        // the intermediate's key, so a client takes the CA certificate for the server's.
        let reversedLeaf = try leafTemplate.leaf(
            key: mainKey, dnsNames: [host("reversed-chain")], commonName: host("reversed-chain"),
            issuer: intermediate)
        served["reversed-chain"] = LabServedChain(
            chain: [intermediate.certificate, reversedLeaf], key: intermediate.key)

        // Known-bad roots: the names software put on users' machines; the server sends its leaf
        // alone, as badssl.com does.
        var anchors: [LabAnchor: Certificate] = [:]
        let knownBad: [(String, LabAnchor, NameBuilder)] = [
            (
                "superfish", .superfish,
                NameBuilder([
                    .organization("Superfish, Inc."), .locality("SF"), .state("CA"), .country("US"),
                    .commonName("Superfish, Inc."),
                ])
            ),
            ("edellroot", .eDellRoot, NameBuilder(commonName: "eDellRoot")),
            (
                "dsdtestprovider", .dsdTestProvider,
                NameBuilder([
                    .organizationalUnit("DSDTestProvider"), .organization("DSDTestProvider"),
                    .commonName("DSDTestProvider"),
                ])
            ),
            ("preact-cli", .preactCLI, NameBuilder([.organization("Acme Co")])),
            ("webpack-dev-server", .webpackDevServer, NameBuilder(commonName: "localhost")),
        ]
        for (name, anchor, subject) in knownBad {
            let root = try ca(subject, issuer: nil)
            anchors[anchor] = root.certificate
            let leaf = try leafTemplate.leaf(
                key: mainKey, dnsNames: [host(name)], commonName: host(name), issuer: root)
            served[name] = LabServedChain(chain: [leaf], key: mainKey)
        }

        let missingClientCA = try ca(badsslName("BadSSL Client Untrusted Root Certificate Authority"), issuer: nil)

        // RSA keys take a tenth of a second (2048) to a minute (8192) to make: ready now only
        // when a key was made before (LabSlowKeys), otherwise made for the first client.
        var deferred: [String: @Sendable () throws(BuilderError) -> LabServedChain] = [:]
        // 10000-sans: a 300 KB certificate is a tenth of a second to build and parse, for a case
        // few trainees open: made for its first client too.
        let tenThousandNames: @Sendable () throws(BuilderError) -> LabServedChain = { () throws(BuilderError) in
            let names = [host("10000-sans")] + (2...10_000).map { "san\($0).\(domain)" }
            let leaf = try leafTemplate.leaf(
                key: mainKey, dnsNames: names, commonName: names[0], issuer: intermediate)
            return LabServedChain(chain: [leaf, intermediate.certificate], key: mainKey)
        }
        deferred["10000-sans"] = tenThousandNames
        for (name, bits) in slowKeyBits.sorted(by: { $0.value < $1.value }) {
            let make: @Sendable () throws(BuilderError) -> LabServedChain = { () throws(BuilderError) in
                let key = try LabSlowKeys.rsa(bits: bits)
                let leaf = try leafTemplate.leaf(
                    key: key, dnsNames: wildcard, commonName: wildcard[0], issuer: intermediate)
                return LabServedChain(chain: [leaf, intermediate.certificate], key: key)
            }
            if LabSlowKeys.cached(bits: bits) != nil {
                served[name] = try make()
            } else {
                deferred[name] = make
            }
        }
        return BadSSLPKI(
            served: served, anchors: anchors, missingClientCA: missingClientCA.certificate, deferred: deferred)
    }
}

/// How every badssl.com leaf is made: badssl.com's 730 days (from a day ago), EKU serverAuth,
/// keyUsage for the key's kind, the DNS names then the lab's addresses in the subjectAltName.
private struct LeafTemplate: Sendable {
    var ips: [GeneralName]
    var now: Timestamp

    func leaf(
        key: KeyPair, dnsNames: [String], commonName: String?, issuer: LabIssued,
        configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
    ) throws(BuilderError) -> Certificate {
        let start = now.adding(seconds: -LabPKI.day)
        var b = CertificateBuilder(
            subject: BadSSLPKI.badsslName(commonName), publicKey: key, notBefore: start,
            notAfter: start.adding(seconds: 730 * LabPKI.day))
        b.basicConstraints = .init(isCA: false, critical: false)
        if case .rsa = key.kind {
            b.keyUsage = .init([.digitalSignature, .keyEncipherment])
        } else {
            b.keyUsage = .init([.digitalSignature])
        }
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .init(dnsNames.map { .dnsName($0) } + ips)
        try configure(&b)
        return try b.sign(issuerKey: issuer.key, issuer: issuer.certificate)
    }
}
