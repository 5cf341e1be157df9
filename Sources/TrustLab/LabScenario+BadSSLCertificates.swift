import TrustCore

extension LabScenarioGroup {
    /// badssl.com's certificate cases (its domains/cert folder), under `badssl.trustx.test`.
    public static let badsslCertificates = LabScenarioGroup(
        id: "badssl-certificates", title: "badssl.com: certificates")
}

extension LabScenario {
    /// A badssl.com certificate case: host `NAME.badssl.trustx.test`, Library Test CA as anchor,
    /// HTTPS. The lab's own lessons carry the cases they already teach (expired, self-signed,
    /// untrusted-root, revoked, incomplete-chain, client).
    static func badsslCase(
        _ name: String, group: LabScenarioGroup = .badsslCertificates, _ lesson: String,
        _ expectation: LabExpectation, rule: String, networkOnly: String? = nil, variations: [LabVariation] = [],
        portOffset: Int
    ) -> LabScenario {
        LabScenario(
            group: group, name: name, lesson: lesson, host: BadSSLPKI.host(name), anchor: .libraryTestCA,
            expectation: expectation, rule: rule, networkOnly: networkOnly, variations: variations,
            serviceProtocol: .https, portOffset: portOffset, badssl: name)
    }

    /// The certificates group, in badssl.com's order.
    static let badsslCertificates: [LabScenario] = [
        badsslCase(
            "1000-sans", "A leaf naming 1,000 hosts: big, and fine.", .trusted,
            rule:
                "SSLHostname finds the host among the dNSName entries; Apple sets no limit on their number (docs/steps.md#hostname)",
            portOffset: 100),
        badsslCase(
            "10000-sans",
            "A leaf naming 10,000 hosts: its Certificate message is over 256 KiB, more than TLS clients accept.",
            LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
            rule:
                "the handshake fails on the Certificate message's size before any evaluation (URLError -1200; docs/connecting.md)",
            networkOnly: "the Certificate message's size: the chain alone evaluates as trusted",
            portOffset: 101),
        badsslCase(
            "ecc256", "An ECDSA P-256 leaf: the key most servers should use.", .trusted,
            rule: "Apple KeySize: EC keys of 256 bits or more pass under SSL (docs/steps.md#key-size)", portOffset: 102),
        badsslCase(
            "ecc384", "An ECDSA P-384 leaf.", .trusted,
            rule: "Apple KeySize: EC keys of 256 bits or more pass under SSL (docs/steps.md#key-size)", portOffset: 103),
        badsslCase(
            "extended-validation",
            "A leaf asserting a certificate policy, as EV leaves do: iOS shows no EV indicator, and the policy decides nothing.",
            .trusted,
            rule:
                "the SSL policy requires no certificate policy; EV matters only for system roots Apple lists for an EV policy (docs/steps.md#certificate-policies)",
            portOffset: 104),
        badsslCase(
            "no-common-name", "A leaf with no Common Name: Apple reads only the subjectAltName anyway.", .trusted,
            rule: "Apple SSLHostname matches subjectAltName entries only (docs/steps.md#hostname)", portOffset: 105),
        badsslCase(
            "no-sct",
            "A leaf without Signed Certificate Timestamps: fine under a private CA, refused from a public one.",
            .trusted,
            rule:
                "Certificate Transparency is never required under a custom anchor; a leaf from a system root needs SCTs (SystemTrustedCTRequired, -67825; docs/steps.md#certificate-transparency)",
            portOffset: 106),
        badsslCase(
            "no-subject", "A leaf with an empty subject and a critical subjectAltName, as RFC 5280 allows.",
            .trusted,
            rule: "an empty subject is compliant when the subjectAltName is critical (docs/steps.md#compliance)",
            portOffset: 107),
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
            ], portOffset: 108),
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
            ], portOffset: 109),
        badsslCase(
            "rsa2048", "An RSA-2048 leaf: the smallest RSA key Apple accepts for TLS.", .trusted,
            rule: "Apple KeySize: RSA 2048 bits or more pass under SSL (docs/steps.md#key-size)",
            networkOnly: "the key is made when the first client connects, which then waits a moment", portOffset: 110),
        badsslCase(
            "rsa4096", "An RSA-4096 leaf: accepted, slower handshakes.", .trusted,
            rule: "Apple KeySize sets a minimum only (docs/steps.md#key-size)",
            networkOnly: "the key is made when the first client connects, which then waits about a second",
            portOffset: 111),
        badsslCase(
            "rsa8192", "An RSA-8192 leaf: accepted, and every handshake is slow.", .trusted,
            rule: "Apple KeySize sets a minimum only (docs/steps.md#key-size)",
            networkOnly: "the key is made when the first client connects, which may wait a minute (try again)",
            portOffset: 112),
        badsslCase(
            "sha1-2016", "A leaf signed with SHA-1 (badssl.com's expired in 2016): refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL, whatever the expiry date (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            variations: [LabVariation([.policy(.basicX509)], .trusted, "Basic X.509 only bans MD2/4/5")],
            portOffset: 113),
        badsslCase(
            "sha1-2017", "A leaf signed with SHA-1 (badssl.com's expired in 2017): refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL, whatever the expiry date (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            portOffset: 114),
        badsslCase(
            "sha1-intermediate", "A SHA-256 leaf under an intermediate signed with SHA-1: refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms judges every certificate but a self-signed root (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            portOffset: 115),
        badsslCase(
            "sha256", "A leaf signed with SHA-256.", .trusted,
            rule: "Apple SignatureHashAlgorithms: SHA-256, -384 and -512 pass (docs/steps.md#signature-algorithm)",
            portOffset: 116),
        badsslCase(
            "sha384", "A leaf signed with SHA-384.", .trusted,
            rule: "Apple SignatureHashAlgorithms: SHA-256, -384 and -512 pass (docs/steps.md#signature-algorithm)",
            portOffset: 117),
        badsslCase(
            "sha512", "A leaf signed with SHA-512.", .trusted,
            rule: "Apple SignatureHashAlgorithms: SHA-256, -384 and -512 pass (docs/steps.md#signature-algorithm)",
            portOffset: 118),
        badsslCase(
            "wrong.host", "A wildcard certificate reached two labels deep: *.badssl.trustx.test covers one label only.",
            .rejectedByDelegate(-67602),
            rule:
                "Apple SSLHostname: a wildcard matches exactly one leftmost label (Name, -67602; docs/steps.md#hostname)",
            variations: [
                LabVariation([.policy(.basicX509)], .trusted, "Basic X.509 has no hostname check")
            ], portOffset: 119),
        badsslCase(
            "xn--n1aae7f7o",
            "An internationalised host name: certificate and URL both carry the A-label (punycode), compared as ASCII.",
            .trusted,
            rule: "Apple SSLHostname compares the A-label case-insensitively (docs/steps.md#hostname)",
            portOffset: 120),
        badsslCase(
            "sha1", "badssl.com's sha1 server: the sha1-2016 certificate, refused under SSL.",
            .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            portOffset: 121),
    ]
}
