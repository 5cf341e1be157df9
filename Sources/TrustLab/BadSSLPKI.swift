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
    /// The wildcard leaf's names.
    static let wildcard = ["*.\(domain)", domain]

    /// The host of badssl.com scenario `name` in the lab.
    static func host(_ name: String) -> String { "\(name).\(domain)" }

    /// "BadSSL Intermediate Certificate Authority", below Library Test CA.
    var intermediate: LabIssued
    /// The same name, signed with SHA-1 (badssl.com's ca-sha1-intermediate).
    var sha1Intermediate: LabIssued
    /// The key every leaf shares whose key is not the lesson, as badssl.com shares its main key.
    var mainKey: KeyPair
    /// The known-bad roots, under badssl.com's subject names.
    var knownBadRoots: [LabAnchor: LabIssued]
    /// The client CA client-cert-missing asks for, which issued no learner anything.
    var missingClientCA: Certificate
    /// How every leaf is made.
    var template: BadSSLLeafTemplate
    /// The leaf badssl.com's TLS servers share: `*.badssl.trustx.test` (and the lab's addresses),
    /// RSA-2048 so that RSA key exchange and DHE-RSA suites can use it, issued by Library Test CA.
    var tlsWildcard: LabServedChain

    /// The known-bad roots as anchors.
    var anchors: [LabAnchor: Certificate] { knownBadRoots.mapValues(\.certificate) }

    /// badssl.com's subject for its certificates: `C=US, ST=California, L=San Francisco, O=BadSSL`
    /// and `CN=commonName` when given.
    static func badsslName(_ commonName: String?) -> NameBuilder {
        var attributes: [NameBuilder.Attribute] = [
            .country("US"), .state("California"), .locality("San Francisco"), .organization("BadSSL"),
        ]
        if let commonName { attributes.append(.commonName(commonName)) }
        return NameBuilder(attributes)
    }

    /// The subjects of the known-bad roots: the names software put on users' machines.
    static let knownBadSubjects: [(LabAnchor, NameBuilder)] = [
        (
            .superfish,
            NameBuilder([
                .organization("Superfish, Inc."), .locality("SF"), .state("CA"), .country("US"),
                .commonName("Superfish, Inc."),
            ])
        ),
        (.eDellRoot, NameBuilder(commonName: "eDellRoot")),
        (
            .dsdTestProvider,
            NameBuilder([
                .organizationalUnit("DSDTestProvider"), .organization("DSDTestProvider"),
                .commonName("DSDTestProvider"),
            ])
        ),
        (.preactCLI, NameBuilder([.organization("Acme Co")])),
        (.webpackDevServer, NameBuilder(commonName: "localhost")),
    ]

    /// Builds the badssl.com CAs and the shared key below `library` (the lab's Library Test CA).
    /// - Parameters:
    ///   - serverIPs: appended to every leaf's subjectAltName, for clients that dial an address.
    ///   - rsaKey: the RSA-2048 key of the TLS servers' leaf, one the lab made already: generating
    ///     another costs a start-up up to a second on a busy machine, and its leaves may share a key.
    static func build(
        library: LabIssued, rsaKey: KeyPair, now: Timestamp, serverIPs: [String]
    ) throws(BuilderError) -> BadSSLPKI {
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
        let sha1Intermediate = try ca(
            badsslName("BadSSL Intermediate Certificate Authority"), issuer: library, signature: .ecdsaWithSHA1)
        let mainKey = try KeyPair.generate(.ecP256)
        var roots: [LabAnchor: LabIssued] = [:]
        for (anchor, subject) in knownBadSubjects { roots[anchor] = try ca(subject, issuer: nil) }
        let missingClientCA = try ca(badsslName("BadSSL Client Untrusted Root Certificate Authority"), issuer: nil)
        let start = now.adding(seconds: -day)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: wildcard[0]), publicKey: rsaKey, notBefore: start,
            notAfter: start.adding(seconds: 397 * day))
        // keyEncipherment: RSA key exchange encrypts the premaster secret to this key (RFC 5246 7.4.7.1).
        b.keyUsage = .init([.digitalSignature, .keyEncipherment])
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .init([.dnsName(wildcard[0])] + ips)
        let tlsLeaf = try b.sign(issuerKey: library.key, issuer: library.certificate)
        return BadSSLPKI(
            intermediate: intermediate, sha1Intermediate: sha1Intermediate, mainKey: mainKey, knownBadRoots: roots,
            missingClientCA: missingClientCA.certificate, template: BadSSLLeafTemplate(ips: ips, now: now),
            tlsWildcard: LabServedChain(chain: [tlsLeaf], key: rsaKey))
    }

    /// A leaf and its issuer, as most badssl.com servers send them.
    /// - Parameters:
    ///   - key: the leaf's key; nil: the shared main key.
    ///   - names: the leaf's DNS names, the first also its Common Name unless `commonName` says
    ///     otherwise (`.some(nil)`: none).
    ///   - issuer: nil: the BadSSL intermediate.
    func chain(
        key: KeyPair? = nil, names: [String], commonName: String?? = nil, issuer: LabIssued? = nil,
        configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
    ) throws(BuilderError) -> LabServedChain {
        let issuing = issuer ?? intermediate
        let leafKey = key ?? mainKey
        let leaf = try template.leaf(
            key: leafKey, dnsNames: names, commonName: commonName ?? names.first, issuer: issuing, configure: configure)
        return LabServedChain(chain: [leaf, issuing.certificate], key: leafKey)
    }
}

/// How every badssl.com leaf is made: badssl.com's 730 days (from a day ago), EKU serverAuth,
/// keyUsage for the key's kind, the DNS names then the lab's addresses in the subjectAltName.
struct BadSSLLeafTemplate: Sendable {
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
