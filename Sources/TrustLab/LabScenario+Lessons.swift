import TrustBuilder
import TrustCore
import TrustX509

extension LabScenarioGroup {
    /// The lab's own lessons: the walkthrough's server on 127.0.0.1 with one thing broken at a time.
    public static let lessons = LabScenarioGroup(id: "lessons", title: "The lab's lessons", firstPortOffset: 0)
}

extension LabScenario {
    /// The lessons group, in teaching order.
    static let lessons: [LabScenario] = [
        LabScenario(
            group: .lessons, name: "good", lesson: "A private CA's server, trusted once its CA is the app's anchor.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // any custom anchor is trusted; the leaf has SAN IP:127.0.0.1, EKU serverAuth,
            // P-256 and a 397-day lifetime, so every SSL check passes.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted, and the SAN iPAddress matches the host (docs/steps.md#anchor, docs/steps.md#hostname)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.pin(.goodLeaf)], .trusted,
                    "the pin matches the leaf's key and is checked after evaluation passed"),
                LabVariation(
                    [.noScenarioAnchor], .rejectedByDefault(-25318),
                    "without the anchor only system roots are trusted and Library Test CA is not one of them"),
            ], serviceProtocol: .https, chain: .good),
        LabScenario(
            group: .lessons, name: "wrong-host",
            lesson: "The same server reached as localhost: the certificate names only 127.0.0.1.",
            host: "localhost", anchor: .libraryTestCA,
            // SSLHostname: the host `localhost` is a DNS name, compared only with SAN dNSName
            // entries; the leaf has only iPAddress 127.0.0.1 -> errSecHostNameMismatch.
            expectation: .rejectedByDelegate(-67602),
            rule: "Apple SSLHostname: the host must match a SAN entry (Name, -67602; docs/steps.md#hostname)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.policy(.basicX509)], .trusted,
                    "Basic X.509 has no hostname check, which hides the mismatch"),
                LabVariation(
                    [.policy(.ssl(host: nil))], .trusted,
                    "SecPolicyCreateSSL(true, nil) skips the hostname check"),
            ], serviceProtocol: .https, chain: .good, featuredInTour: true),
        LabScenario(
            group: .lessons, name: "tls12-only",
            lesson: "A server stuck at TLS 1.2: fine today, refused by a client requiring TLS 1.3.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // URLSession's default minimum is TLS 1.2, so the handshake succeeds and the chain
            // (the good server's) is trusted.
            expectation: .trusted,
            rule:
                "URLSession requires TLS 1.2 or later by default; any custom anchor is trusted (docs/connecting.md, docs/steps.md#anchor)",
            networkOnly: "the protocol version: with --tls-min 1.3 the handshake fails before any evaluation (-1200)",
            variations: [
                LabVariation(
                    [.minimumTLS(.tls1_3)],
                    LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
                    "no common protocol version: the handshake fails, URLError -1200")
            ], serviceProtocol: .https, chain: .good,
            serverTLS: LabServerTLS(.tls1_2, .tls1_2)),
        LabScenario(
            group: .lessons, name: "rogue-ca",
            lesson: "A server whose certificate comes from another CA: the anchor decides, not the name.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // the leaf's issuer "Rogue CA" is neither presented nor an anchor, and the leaf
            // has no AIA URL -> MissingIntermediate, errSecCreateChainFailed.
            expectation: .rejectedByDelegate(-25318),
            rule:
                "Apple MissingIntermediate: an issuer that is neither presented nor an anchor (Trust, -25318; docs/steps.md#chain)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.anchor(.rogueCA)], .trusted,
                    "both CAs are anchors: any custom anchor is trusted"),
                LabVariation(
                    [.anchor(.rogueCA), .pin(.goodLeaf)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "evaluation passes, but the test server's pin does not match: the delegate cancels"),
            ], serviceProtocol: .https, chain: .leaf(of: \.rogueCA)),
        LabScenario(
            group: .lessons, name: "expired", lesson: "A leaf whose notAfter has passed.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // TemporalValidity: outside notBefore..notAfter -> errSecCertificateExpired.
            expectation: .rejectedByDelegate(-67818),
            rule: "Apple TemporalValidity: outside notBefore..notAfter (Expired, -67818; docs/steps.md#validity)",
            networkOnly: nil, variations: [], serviceProtocol: .https,
            chain: .leaf { b, pki in
                b.notBefore = pki.now.adding(seconds: -400 * LabPKI.day)
                b.notAfter = pki.now.adding(seconds: -30 * LabPKI.day)
            },
            badssl: "expired"),
        LabScenario(
            group: .lessons, name: "not-yet-valid",
            lesson: "A leaf whose notBefore is in the future (a clock or issuance mistake).",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // TemporalValidity: not-yet-valid also gives -67818 under SSL (not -67819).
            expectation: .rejectedByDelegate(-67818),
            rule:
                "Apple TemporalValidity: not yet valid reads as expired (Expired, -67818, not -67819; docs/steps.md#validity)",
            networkOnly: nil, variations: [], serviceProtocol: .https,
            chain: .leaf { b, pki in
                b.notBefore = pki.now.adding(seconds: 30 * LabPKI.day)
                b.notAfter = pki.now.adding(seconds: 395 * LabPKI.day)
            }),
        LabScenario(
            group: .lessons, name: "self-signed",
            lesson: "A self-signed leaf: trusted only when that very certificate is the anchor.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // a self-signed leaf that is not an anchor -> AnchorTrusted, errSecNotTrusted.
            expectation: .rejectedByDelegate(-67843),
            rule: "Apple AnchorTrusted: a self-signed leaf that is not an anchor (Trust, -67843; docs/steps.md#anchor)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.noScenarioAnchor, .anchor(.selfSigned)], .trusted,
                    "a self-signed leaf set as anchor is accepted, still subject to hostname, EKU and lifetime")
            ], serviceProtocol: .https, chain: LabChain { p, _ in LabServedChain(p.lab.selfSigned) },
            badssl: "self-signed"),
        LabScenario(
            group: .lessons, name: "missing-intermediate",
            lesson:
                "The server forgets its intermediate and the leaf has no AIA URL; fix: trustx check --chain leaf.pem intermediate.pem --anchor library-test-ca.pem --write-chain chain.pem",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // missing issuer, not supplied, not an anchor, not fetchable -> errSecCreateChainFailed.
            expectation: .rejectedByDelegate(-25318),
            rule:
                "Apple MissingIntermediate: an issuer that is neither presented nor an anchor (Trust, -25318; docs/steps.md#chain)",
            networkOnly: nil, variations: [], serviceProtocol: .https, chain: .leaf(of: \.libraryIntermediate)),
        LabScenario(
            group: .lessons, name: "missing-intermediate-aia",
            lesson:
                "The server forgets its intermediate, but the leaf's AIA URL lets an iPhone fetch it; fix: trustx check URL --anchor library-test-ca.pem --write-chain chain.pem",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // Apple's SSL policy fetches a missing issuer from the AIA caIssuers URL; the lab
            // serves the intermediate there, so the completed path is trusted.
            expectation: .trusted,
            rule:
                "Apple's SSL policy fetches a missing issuer from the AIA caIssuers URL; any custom anchor is trusted (docs/steps.md#chain)",
            networkOnly:
                "the AIA download: the served chain alone stops at the leaf (-25318); with the fetched intermediate it is trusted",
            variations: [
                LabVariation(
                    [.noAIA], .rejectedByDelegate(-25318),
                    "without the fetch the issuer is missing, as OpenSSL and curl users see it")
            ], serviceProtocol: .https,
            chain: .leaf(of: \.libraryIntermediate) { b, pki in b.caIssuersURLs = [pki.aiaURL] },
            badssl: "incomplete-chain", extraServers: [.aiaIntermediate]),
        LabScenario(
            group: .lessons, name: "wrong-order",
            lesson:
                "Intermediates sent in the wrong order: Apple builds the path anyway; fix: trustx check URL --anchor library-test-ca.pem --write-chain chain.pem",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // Path building: issuers are found by name among the presented certificates in
            // any order (RFC 8446 4.4.2 allows it), so the path is complete and trusted.
            expectation: .trusted,
            rule: "path building ignores presentation order; any custom anchor is trusted (docs/steps.md#chain)",
            networkOnly: nil, variations: [], serviceProtocol: .https,
            chain: LabChain { p, _ throws(BuilderError) in
                // root -> intermediate -> issuing CA -> leaf, sent as leaf, intermediate, issuing
                // CA (the issuing CA should come first).
                let issuing = try p.lab.issuingCA(intermediate: p.lab.libraryIntermediate)
                return LabServedChain(
                    try p.lab.leaf(issuer: issuing), [p.lab.libraryIntermediate.certificate, issuing.certificate])
            }),
        LabScenario(
            group: .lessons, name: "untrusted-root", lesson: "A complete chain up to a root the client does not trust.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // AnchorTrusted: the path ends in a self-signed root that is not an anchor -> -67843.
            expectation: .rejectedByDelegate(-67843),
            rule:
                "Apple AnchorTrusted: the path ends at a root that is not an anchor (Trust, -67843; docs/steps.md#anchor)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.anchor(.untrustedRoot)], .trusted,
                    "trusting the root makes the same chain trusted: the anchor set is the whole difference")
            ], serviceProtocol: .https,
            chain: LabChain { p, _ throws(BuilderError) in
                let other = try p.lab.issuingCA(intermediate: p.lab.untrustedRoot, name: "Untrusted Intermediate CA")
                return LabServedChain(
                    try p.lab.leaf(issuer: other), [other.certificate, p.lab.untrustedRoot.certificate])
            },
            badssl: "untrusted-root"),
        LabScenario(
            group: .lessons, name: "cn-only", lesson: "The host is only in the Common Name: Apple never reads the CN.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // only SAN entries count, the CN is never used (HT210176) -> errSecHostNameMismatch.
            expectation: .rejectedByDelegate(-67602),
            rule: "Apple SSLHostname: the Common Name is never used (Name, -67602; docs/steps.md#hostname)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.policy(.basicX509)], .trusted,
                    "Basic X.509 checks no name at all")
            ], serviceProtocol: .https, chain: .leaf { b, _ in b.subjectAltNames = nil }),
        LabScenario(
            group: .lessons, name: "client-auth-eku",
            lesson: "A client certificate used as a server certificate: EKU clientAuth only.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // custom anchor, leaf notBefore after 2019-06-30 -> the leaf EKU must contain
            // serverAuth -> ExtendedKeyUsage, errSecInvalidExtendedKeyUsage.
            expectation: .rejectedByDelegate(-67609),
            rule:
                "Apple ExtendedKeyUsage: a leaf under a custom anchor needs serverAuth (Usage, -67609; docs/steps.md#extended-key-usage)",
            networkOnly: nil,
            variations: [
                LabVariation([.policy(.basicX509)], .trusted, "Basic X.509 has no EKU check")
            ], serviceProtocol: .https, chain: .leaf { b, _ in b.extendedKeyUsage = .init([.clientAuth]) }),
        LabScenario(
            group: .lessons, name: "rsa-1024",
            lesson: "An RSA-1024 leaf: too small for TLS since 2017, custom anchor or not.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // KeySize: SSL policy, RSA < 2048 anywhere in the chain -> errSecUnsupportedKeySize.
            expectation: .rejectedByDelegate(-67735),
            rule: "Apple KeySize: RSA keys below 2048 bits fail under SSL (KeySize, -67735; docs/steps.md#key-size)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.policy(.basicX509)], .trusted,
                    "Basic X.509 only refuses RSA < 1024 (WeakKeySize)")
            ], serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                LabServedChain(try p.lab.leaf(issuer: p.lab.libraryCA, kind: .rsa(bits: 1024), role: s.name))
            }),
        LabScenario(
            group: .lessons, name: "sha1-signature", lesson: "A leaf signed with SHA-1: refused under the SSL policy.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // SignatureHashAlgorithms: SHA-1 on a non-self-signed certificate under SSL ->
            // errSecInvalidDigestAlgorithm.
            expectation: .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.policy(.basicX509)], .trusted,
                    "Basic X.509 only bans MD2/4/5")
            ], serviceProtocol: .https, chain: .leaf { b, _ in b.signatureAlgorithm = .ecdsaWithSHA1 }),
        LabScenario(
            group: .lessons, name: "long-validity",
            lesson: "A 900-day leaf: over the 825-day maximum, even under a private CA.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // custom anchor, notBefore >= 2019-06-30T23:00Z -> at most 825 days + 1 h ->
            // ValidityPeriodMaximums, errSecCertificateValidityPeriodTooLong.
            expectation: .rejectedByDelegate(-67901),
            rule:
                "Apple ValidityPeriodMaximums: at most 825 days under a custom anchor (Compliance, -67901; docs/steps.md#validity-period-maximum)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.policy(.basicX509)], .trusted,
                    "Basic X.509 has no validity-period maximum")
            ], serviceProtocol: .https,
            chain: .leaf { b, _ in b.notAfter = b.notBefore.adding(seconds: 900 * LabPKI.day) }),
        LabScenario(
            group: .lessons, name: "path-length", lesson: "An intermediate limited to pathLen 0 signs another CA.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // BasicConstraintsPathLen: a CA below a pathLenConstraint 0 issuer ->
            // errSecPathLengthConstraintExceeded.
            expectation: .rejectedByDelegate(-67611),
            rule:
                "Apple BasicConstraintsPathLen: a CA below a pathLenConstraint 0 issuer (Compliance, -67611; docs/steps.md#basic-constraints)",
            networkOnly: nil, variations: [], serviceProtocol: .https,
            chain: LabChain { p, _ throws(BuilderError) in
                let limited = try p.lab.intermediate(
                    "Library Test Intermediate CA (pathLen 0)", issuer: p.lab.libraryCA, pathLength: 0)
                let belowLimit = try p.lab.issuingCA(intermediate: limited)
                return LabServedChain(
                    try p.lab.leaf(issuer: belowLimit), [belowLimit.certificate, limited.certificate])
            }),
        LabScenario(
            group: .lessons, name: "name-constraints",
            lesson: "An intermediate constrained to example.com and 10.0.0.0/8 issues for 127.0.0.1.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // NameConstraints: the leaf's iPAddress is outside the permitted subtrees ->
            // errSecInvalidName.
            expectation: .rejectedByDelegate(-67689),
            rule:
                "Apple NameConstraints: the leaf's address is outside the permitted subtrees (Compliance, -67689; docs/steps.md#name-constraints)",
            networkOnly: nil, variations: [], serviceProtocol: .https,
            chain: LabChain { p, _ throws(BuilderError) in
                let constrained = try p.lab.intermediate("Library Test Constrained CA", issuer: p.lab.libraryCA) {
                    b throws(BuilderError) in
                    b.nameConstraints = .init(permitted: [
                        .dnsName("example.com"), try GeneralName.ipSubnet("10.0.0.0/8"),
                    ])
                }
                return LabServedChain(try p.lab.leaf(issuer: constrained), [constrained.certificate])
            }),
        LabScenario(
            group: .lessons, name: "rsa-2048", lesson: "An RSA-2048 leaf for the exercise's RSA pin.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // RSA 2048 meets the SSL key size; otherwise identical to good.
            expectation: .trusted,
            rule: "Apple KeySize passes at RSA 2048; any custom anchor is trusted (docs/steps.md#key-size)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.pin(.rsa2048Leaf)], .trusted,
                    "the RSA pin matches the leaf's SubjectPublicKeyInfo"),
                LabVariation(
                    [.pin(.goodLeaf)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "the good server's pin is another key: evaluation passes, the delegate cancels"),
            ], serviceProtocol: .https, chain: LabChain { p, _ in LabServedChain(p.lab.rsa2048) }),
        LabScenario(
            group: .lessons, name: "mtls-required",
            lesson: "A server that requires a client certificate from the lab's client CA.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // clientCertificateRequired: the server's chain evaluates fine (errSecSuccess), but
            // a client without an identity fails the handshake -> URLError -1206.
            expectation: LabExpectation(trusted: false, osstatus: 0, urlError: -1206),
            rule:
                "URLError clientCertificateRequired (-1206); the server's chain is as good's (docs/steps.md#urlerror)",
            networkOnly:
                "the client-certificate request: the served chain is trusted; only the handshake without an identity fails (-1206)",
            variations: [
                LabVariation(
                    [.clientIdentity],
                    .trusted, "with the lab's learner identity the server accepts the connection")
            ], serviceProtocol: .https, chain: .good,
            badssl: "client", serverTLS: LabServerTLS(.tls1_2, .tls1_3, requiredClientCA: .learners)),
        LabScenario(
            group: .lessons, name: "smtp-starttls",
            lesson: "A mail server upgrading to TLS with STARTTLS: the same trust rules.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // custom anchor; the SSL policy applies to the STARTTLS certificate as to HTTPS.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted, and the SAN iPAddress matches the host (docs/steps.md#anchor, docs/steps.md#hostname)",
            networkOnly: nil, variations: [], serviceProtocol: .smtpStartTLS, chain: .good),
        LabScenario(
            group: .lessons, name: "key-rotated",
            lesson: "The server's key changed since the lesson's pin was taken: why backup pins exist.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // the new leaf is as good as good's, so evaluation passes; pins are checked only after.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted; pins are checked after evaluation, and a single leaf pin breaks at key rotation (docs/steps.md#pin)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.pin(.rotatedAwayLeaf)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "the only pin is the old key's: evaluation passes, the delegate cancels (a single pin with no backup)"
                ),
                LabVariation(
                    [.pin(.rotatedAwayLeaf), .pin(.libraryTestCA)],
                    .trusted, "a backup pin on the CA's key survives the rotation"),
            ], serviceProtocol: .https, chain: .leaf()),
        LabScenario(
            group: .lessons, name: "revoked-ocsp",
            lesson: "A revoked certificate whose server staples the CA's OCSP response saying so.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // The staple is signed by Library Test CA, names this leaf and is current: Apple's
            // Revocation check fails it, fatally, whatever else passes.
            expectation: .rejectedByDelegate(-67820),
            rule:
                "Apple Revocation: the stapled OCSP response, signed by the issuer, says revoked (Revoked, -67820, fatal; docs/steps.md#revocation)",
            networkOnly:
                "the stapled OCSP response: the served chain alone is trusted; the staple in the handshake revokes it",
            variations: [], serviceProtocol: .https,
            chain: LabChain { p, _ throws(BuilderError) in
                // The CA revoked this leaf a day ago, and the server staples the CA's own OCSP
                // response saying so, current for a week.
                let revoked = try p.lab.leaf(issuer: p.lab.libraryCA)
                var served = LabServedChain(revoked)
                served.ocspResponse = try OCSPResponseBuilder(
                    status: .revoked(p.lab.now.adding(seconds: -LabPKI.day)),
                    thisUpdate: p.lab.now.adding(seconds: -3600), nextUpdate: p.lab.now.adding(seconds: 7 * LabPKI.day)
                ).sign(certificate: revoked.certificate, issuer: p.lab.libraryCA.certificate, key: p.lab.libraryCA.key)
                return served
            },
            badssl: "revoked"),
    ]
}
