import TrustBuilder
import TrustCore
import TrustX509

extension LabScenarioGroup {
    /// badssl.com's certificate cases (its domains/cert folder), under `badssl.trustx.test`.
    public static let badsslCertificates = LabScenarioGroup(
        id: "badssl-certificates", title: "badssl.com: certificates", firstPortOffset: 100)
}

extension LabScenario {
    /// A badssl.com certificate case: host `NAME.badssl.trustx.test`, Library Test CA as anchor,
    /// HTTPS. The lab's own lessons carry the cases they already teach (expired, self-signed,
    /// untrusted-root, revoked, incomplete-chain, client).
    static func badsslCase(
        _ name: String, group: LabScenarioGroup = .badsslCertificates, _ lesson: String,
        _ expectation: LabExpectation, rule: String, networkOnly: String? = nil, variations: [LabVariation] = [],
        serverTLS: LabServerTLS? = nil, chain: LabChain = wildcardChain()
    ) -> LabScenario {
        LabScenario(
            group: group, name: name, lesson: lesson, host: BadSSLPKI.host(name), anchor: .libraryTestCA,
            expectation: expectation, rule: rule, networkOnly: networkOnly, variations: variations,
            serviceProtocol: .https, chain: chain, badssl: name, serverTLS: serverTLS)
    }

    /// A badssl.com leaf for `*.badssl.trustx.test` and its intermediate, changed by `configure`.
    static func wildcardChain(
        _ configure: @escaping @Sendable (inout CertificateBuilder) -> Void = { _ in }
    ) -> LabChain {
        LabChain { p, _ throws(BuilderError) in try p.badssl.chain(names: BadSSLPKI.wildcard) { configure(&$0) } }
    }

    /// A badssl.com leaf for the scenario's own host and its intermediate, changed by `configure`.
    static func hostChain(
        _ configure: @escaping @Sendable (inout CertificateBuilder, String) -> Void = { _, _ in }
    ) -> LabChain {
        LabChain { p, s throws(BuilderError) in try p.badssl.chain(names: [s.host]) { configure(&$0, s.host) } }
    }

    /// A leaf signed with SHA-1 for `days` days (badssl.com's sha1-2016 and sha1-2017).
    static func sha1Chain(days: Int64) -> LabChain {
        wildcardChain { b in
            b.signatureAlgorithm = .ecdsaWithSHA1
            b.notAfter = b.notBefore.adding(seconds: days * LabPKI.day)
        }
    }

    /// A wildcard leaf on a slow RSA key of its own (`LabSlowKeys`), made once the key is.
    static func slowRSAChain(bits: Int) -> LabChain {
        LabChain(.whenKeyReady(bits: bits)) { p, _ throws(BuilderError) in
            try p.badssl.chain(key: try LabSlowKeys.rsa(bits: bits), names: BadSSLPKI.wildcard)
        }
    }

    /// The certificates group, in badssl.com's order.
    static let badsslCertificates: [LabScenario] = [
        badsslCase(
            "1000-sans", "A leaf naming 1,000 hosts: big, and fine.", .trusted,
            rule:
                "SSLHostname finds the host among the dNSName entries; Apple sets no limit on their number (docs/steps.md#hostname)",
            chain: LabChain { p, s throws(BuilderError) in
                try p.badssl.chain(names: [s.host] + (2...1000).map { "wowmoarsans\($0).\(BadSSLPKI.domain)" })
            }),
        badsslCase(
            "10000-sans",
            "A leaf naming 10,000 hosts: its Certificate message is over 256 KiB, more than TLS clients accept.",
            LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
            rule:
                "the handshake fails on the Certificate message's size before any evaluation (URLError -1200; docs/connecting.md)",
            networkOnly: "the Certificate message's size: the chain alone evaluates as trusted",
            chain: LabChain(.firstClient) { p, s throws(BuilderError) in
                // A 300 KB certificate is a tenth of a second to build and parse, for a case few
                // trainees open: made for its first client.
                try p.badssl.chain(names: [s.host] + (2...10_000).map { "san\($0).\(BadSSLPKI.domain)" })
            }),
        badsslCase(
            "ecc256", "An ECDSA P-256 leaf: the key most servers should use.", .trusted,
            rule: "Apple KeySize: EC keys of 256 bits or more pass under SSL (docs/steps.md#key-size)"),
        badsslCase(
            "ecc384", "An ECDSA P-384 leaf.", .trusted,
            rule: "Apple KeySize: EC keys of 256 bits or more pass under SSL (docs/steps.md#key-size)",
            chain: LabChain { p, _ throws(BuilderError) in
                try p.badssl.chain(key: try KeyPair.generate(.ecP384), names: BadSSLPKI.wildcard)
            }),
        badsslCase(
            "extended-validation",
            "A leaf asserting a certificate policy, as EV leaves do: iOS shows no EV indicator, and the policy decides nothing.",
            .trusted,
            rule:
                "the SSL policy requires no certificate policy; EV matters only for system roots Apple lists for an EV policy (docs/steps.md#certificate-policies)",
            chain: hostChain { b, host in
                b.subject = NameBuilder([
                    .country("US"), .state("California"), .locality("Mountain View"),
                    .organization("Mozilla Corporation"), .commonName(host),
                ])
                // badssl.com's policy OID, 1.3.1.1.1.1: no CA's EV policy.
                if let policy = OID(dotted: "1.3.1.1.1.1") { b.rawExtensions.append(.certificatePolicies([policy])) }
            }),
        badsslCase(
            "no-common-name", "A leaf with no Common Name: Apple reads only the subjectAltName anyway.", .trusted,
            rule: "Apple SSLHostname matches subjectAltName entries only (docs/steps.md#hostname)",
            chain: LabChain { p, s throws(BuilderError) in try p.badssl.chain(names: [s.host], commonName: .some(nil)) }
        ),
        badsslCase(
            "no-sct",
            "A leaf without Signed Certificate Timestamps: fine under a private CA, refused from a public one.",
            .trusted,
            rule:
                "Certificate Transparency is never required under a custom anchor; a leaf from a system root needs SCTs (SystemTrustedCTRequired, -67825; docs/steps.md#certificate-transparency)",
            chain: hostChain()),
        badsslCase(
            "no-subject", "A leaf with an empty subject and a critical subjectAltName, as RFC 5280 allows.",
            .trusted,
            rule: "an empty subject is compliant when the subjectAltName is critical (docs/steps.md#compliance)",
            chain: LabChain { p, s throws(BuilderError) in
                let ips = p.badssl.template.ips
                return try p.badssl.chain(names: [s.host]) { b in
                    // An empty subject needs a critical subjectAltName (RFC 5280 4.1.2.6), as badssl.com's has.
                    b.subject = NameBuilder([])
                    b.subjectAltNames = .init([.dnsName(s.host)] + ips, critical: true)
                }
            }),
        badsslCase(
            "pinning-test",
            "A good certificate that Chrome's preloaded pins reject: apps pin with their own code, iOS has no preloaded HPKP.",
            .trusted,
            rule:
                "any custom anchor is trusted; pins are the app's and are checked after evaluation (docs/steps.md#pin)",
            variations: [
                LabVariation(
                    [.pin(.goodLeaf)], LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "pinned to another key (the good server's): evaluation passes, the delegate cancels")
            ], chain: wildcardChain()),
        badsslCase(
            "reversed-chain",
            "The server sends its intermediate first: the client takes a CA certificate for the server's.",
            .rejectedByDelegate(-67901),
            rule:
                "the first certificate is the leaf: the intermediate, valid 5 years with no serverAuth and no host name, fails ValidityPeriodMaximums (Compliance, -67901), which outranks its EKU (-67609) and name (-67602) failures (docs/steps.md#validity-period-maximum)",
            variations: [
                LabVariation(
                    [.policy(.basicX509)], .trusted,
                    "Basic X.509 has no lifetime maximum, EKU or host check: the intermediate chains to the anchor")
            ],
            chain: LabChain { p, s throws(BuilderError) in
                // badssl.com's nginx sends the intermediate first and proves possession of the
                // intermediate's key, so a client takes the CA certificate for the server's.
                let leaf = try p.badssl.chain(names: [s.host]).chain[0]
                return LabServedChain(
                    chain: [p.badssl.intermediate.certificate, leaf], key: p.badssl.intermediate.key)
            }),
        badsslCase(
            "rsa2048", "An RSA-2048 leaf: the smallest RSA key Apple accepts for TLS.", .trusted,
            rule: "Apple KeySize: RSA 2048 bits or more pass under SSL (docs/steps.md#key-size)",
            networkOnly: "the key is made when the first client connects, which then waits a moment",
            chain: slowRSAChain(bits: 2048)),
        badsslCase(
            "rsa4096", "An RSA-4096 leaf: accepted, slower handshakes.", .trusted,
            rule: "Apple KeySize sets a minimum only (docs/steps.md#key-size)",
            networkOnly: "the key is made when the first client connects, which then waits about a second",
            chain: slowRSAChain(bits: 4096)),
        badsslCase(
            "rsa8192", "An RSA-8192 leaf: accepted, and every handshake is slow.", .trusted,
            rule: "Apple KeySize sets a minimum only (docs/steps.md#key-size)",
            networkOnly: "the key is made when the first client connects, which may wait a minute (try again)",
            chain: slowRSAChain(bits: 8192)),
        badsslCase(
            "sha1-2016", "A leaf signed with SHA-1 (badssl.com's expired in 2016): refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL, whatever the expiry date (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            variations: [LabVariation([.policy(.basicX509)], .trusted, "Basic X.509 only bans MD2/4/5")],
            chain: sha1Chain(days: 10)),
        badsslCase(
            "sha1-2017", "A leaf signed with SHA-1 (badssl.com's expired in 2017): refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL, whatever the expiry date (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            chain: sha1Chain(days: 200)),
        badsslCase(
            "sha1-intermediate", "A SHA-256 leaf under an intermediate signed with SHA-1: refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms judges every certificate but a self-signed root (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            chain: LabChain { p, _ throws(BuilderError) in
                try p.badssl.chain(names: BadSSLPKI.wildcard, issuer: p.badssl.sha1Intermediate)
            }),
        badsslCase(
            "sha256", "A leaf signed with SHA-256.", .trusted,
            rule: "Apple SignatureHashAlgorithms: SHA-256, -384 and -512 pass (docs/steps.md#signature-algorithm)",
            chain: wildcardChain { $0.signatureAlgorithm = .ecdsaWithSHA256 }),
        badsslCase(
            "sha384", "A leaf signed with SHA-384.", .trusted,
            rule: "Apple SignatureHashAlgorithms: SHA-256, -384 and -512 pass (docs/steps.md#signature-algorithm)",
            chain: wildcardChain { $0.signatureAlgorithm = .ecdsaWithSHA384 }),
        badsslCase(
            "sha512", "A leaf signed with SHA-512.", .trusted,
            rule: "Apple SignatureHashAlgorithms: SHA-256, -384 and -512 pass (docs/steps.md#signature-algorithm)",
            chain: wildcardChain { $0.signatureAlgorithm = .ecdsaWithSHA512 }),
        badsslCase(
            "wrong.host", "A wildcard certificate reached two labels deep: *.badssl.trustx.test covers one label only.",
            .rejectedByDelegate(-67602),
            rule:
                "Apple SSLHostname: a wildcard matches exactly one leftmost label (Name, -67602; docs/steps.md#hostname)",
            variations: [
                LabVariation([.policy(.basicX509)], .trusted, "Basic X.509 has no hostname check")
            ], chain: wildcardChain()),
        badsslCase(
            "xn--n1aae7f7o",
            "An internationalised host name: certificate and URL both carry the A-label (punycode), compared as ASCII.",
            .trusted,
            rule: "Apple SSLHostname compares the A-label case-insensitively (docs/steps.md#hostname)",
            chain: hostChain()),
        badsslCase(
            "sha1", "badssl.com's sha1 server: the sha1-2016 certificate, refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            // badssl.com's sha1 server presents its sha1-2016 certificate.
            chain: sha1Chain(days: 10)),
    ]
}
