import ATSModel
import LabServers

extension LabScenarioGroup {
    /// badssl.com's cipher-suite folder: servers that differ only in the suites they accept.
    public static let badsslCipherSuites = LabScenarioGroup(
        id: "badssl-cipher-suites", title: "badssl.com: cipher suites", firstPortOffset: 150)
    /// badssl.com's key-exchange folder: DHE with weak or malformed groups, and RSA key exchange.
    public static let badsslKeyExchange = LabScenarioGroup(
        id: "badssl-key-exchange", title: "badssl.com: key exchange", firstPortOffset: 160)
    /// badssl.com's protocol folder: one protocol version per server.
    public static let badsslProtocols = LabScenarioGroup(
        id: "badssl-protocols", title: "badssl.com: protocols", firstPortOffset: 170)
}

extension LabScenario {
    /// badssl.com's TLS folders (cipher-suite, key-exchange, protocol), each server under its
    /// badssl name in `badssl.trustx.test`, with badssl's `ssl_protocols`, `ssl_ciphers` and
    /// `ssl_dhparam` (docs/lab.md, "badssl.com: TLS"). Every server presents the same RSA-2048
    /// leaf for `*.badssl.trustx.test`, as badssl's servers share its wildcard certificate.
    static let badsslTLS: [LabScenario] = badsslCipherSuites + badsslKeyExchange + badsslProtocols

    /// The handshake fails before any evaluation: URLError -1200 (secureConnectionFailed).
    static let handshakeFails = LabExpectation(trusted: false, osstatus: nil, urlError: -1200)

    /// The ATS case every badssl TLS scenario carries: an app's Info.plist without exceptions.
    static func atsDefault(_ expectation: LabExpectation, _ why: String) -> LabATSCase {
        LabATSCase("ats-default", expectation, why)
    }

    /// A badssl TLS scenario: host `NAME.badssl.trustx.test`, Library Test CA, HTTPS.
    static func badssl(
        _ group: LabScenarioGroup, _ name: String, lesson: String, tls: LabServerTLS?,
        expectation: LabExpectation, rule: String, networkOnly: String?, variations: [LabVariation] = [],
        ats: [LabATSCase], legacy: LabLegacyServer? = nil
    ) -> LabScenario {
        LabScenario(
            group: group, name: name, lesson: lesson, host: "\(name).badssl.trustx.test",
            anchor: .libraryTestCA, expectation: expectation, rule: rule, networkOnly: networkOnly,
            variations: variations, serviceProtocol: .https, chain: LabChain { p, _ in p.badssl.tlsWildcard },
            atsCases: ats, badssl: name,
            serverTLS: tls, legacyServer: legacy)
    }

    /// What an Apple client reports when the server answers its ClientHello with a
    /// handshake_failure alert: errSSLPeerHandshakeFail, SecureTransport.h's code for that alert
    /// received from the peer, under URLError -1200.
    static let peerHandshakeFail =
        "URLError -1200 with stream error -9824 errSSLPeerHandshakeFail, Security's code for a handshake_failure alert from the server"

    /// The rule of a server whose only suites no current client offers (RC4, 3DES).
    static func refusedSuites(_ what: String) -> String {
        "the server's only suites are \(what), which neither Apple's stack nor trustx offers: it answers the ClientHello with a handshake_failure alert and the handshake fails (\(peerHandshakeFail); docs/lab.md#badsslcom-tls)"
    }

    /// What the cipher-suite cases decide on the network.
    static let refusedBeforeCertificate =
        "the cipher suite: the server refuses the ClientHello with a handshake_failure alert, before any certificate is sent"

    /// What ATS says when the server has no suite ATS offers.
    static let noATSSuite =
        "ATS offers TLS 1.3 and ECDHE suites only (Apple's tls_ciphersuite_group_ats): no suite in common, the handshake fails (-1200, errSSLATSCiphersuiteViolation -9882)"

    /// The rule of a server whose chain is good: the wildcard leaf matches the host under the
    /// scenario's anchor.
    static let goodChainRule =
        "any custom anchor is trusted and *.badssl.trustx.test matches the host (docs/steps.md#anchor, docs/steps.md#hostname)"

    /// badssl's `DHE-RSA-...` list for its key-exchange servers (DSS suites need a DSA key the
    /// lab does not have, so OpenSSL skips them as nginx does).
    static let dheCiphers =
        "DHE-RSA-AES128-GCM-SHA256:DHE-DSS-AES128-GCM-SHA256:kEDH+AESGCM:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-DSS-AES128-SHA256:DHE-RSA-AES256-SHA256:DHE-DSS-AES256-SHA:DHE-RSA-AES256-SHA:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!3DES:!MD5:!PSK:@SECLEVEL=0"

    static let badsslCipherSuites: [LabScenario] = [
        badssl(
            .badsslCipherSuites, "cbc",
            lesson: "Only AES-CBC suites, no GCM: old-fashioned, and still offered by Apple's stack.",
            tls: LabServerTLS(
                .tls1_1, .tls1_2,
                cipherList:
                    "AES256:AES128:3DES:!AESGCM:!RC4:!aNULL:!eNULL:!EXPORT:!DES:!3DES:!MD5:!PSK:@SECLEVEL=0"),
            expectation: .trusted, rule: goodChainRule, networkOnly: nil,
            ats: [
                atsDefault(
                    .trusted,
                    "ATS's suites include ECDHE with AES-CBC-SHA, which this server accepts: the connection succeeds")
            ]),
        badssl(
            .badsslCipherSuites, "mozilla-modern",
            lesson: "Mozilla's modern profile (2016): TLS 1.2, ECDHE with AEAD first: what ATS asks for.",
            tls: LabServerTLS(
                .tls1_2, .tls1_2,
                cipherList:
                    "ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA384:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA256:@SECLEVEL=0"
            ),
            expectation: .trusted, rule: goodChainRule, networkOnly: nil,
            ats: [atsDefault(.trusted, "TLS 1.2 with ECDHE and AES-GCM: inside ATS's defaults")]),
        badssl(
            .badsslCipherSuites, "mozilla-intermediate",
            lesson: "Mozilla's intermediate profile: TLS 1.0 to 1.2, ECDHE first, legacy suites kept for old clients.",
            tls: LabServerTLS(
                .tls1_0, .tls1_2,
                cipherList:
                    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES256-GCM-SHA384:ECDHE-RSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES256-SHA384:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES256-SHA384:ECDHE-ECDSA-AES256-SHA:ECDHE-RSA-AES256-SHA:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-RSA-AES256-SHA256:DHE-RSA-AES256-SHA:ECDHE-ECDSA-DES-CBC3-SHA:ECDHE-RSA-DES-CBC3-SHA:EDH-RSA-DES-CBC3-SHA:AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES256-SHA256:AES128-SHA:AES256-SHA:DES-CBC3-SHA:!DSS:@SECLEVEL=0",
                dhParameters: .ffdhe2048),
            expectation: .trusted, rule: goodChainRule, networkOnly: nil,
            ats: [
                atsDefault(
                    .trusted, "the server also speaks TLS 1.2 with ECDHE-GCM, which is what an ATS client negotiates")
            ]),
        badssl(
            .badsslCipherSuites, "mozilla-old",
            lesson:
                "Mozilla's old profile: everything back to TLS 1.0 (SSLv3 too on the web); a modern client still gets ECDHE.",
            tls: LabServerTLS(
                .tls1_0, .tls1_2,
                cipherList:
                    "ECDHE-ECDSA-CHACHA20-POLY1305:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256:ECDHE-ECDSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-ECDSA-AES256-GCM-SHA384:DHE-RSA-AES128-GCM-SHA256:DHE-DSS-AES128-GCM-SHA256:kEDH+AESGCM:ECDHE-RSA-AES128-SHA256:ECDHE-ECDSA-AES128-SHA256:ECDHE-RSA-AES128-SHA:ECDHE-ECDSA-AES128-SHA:ECDHE-RSA-AES256-SHA384:ECDHE-ECDSA-AES256-SHA384:ECDHE-RSA-AES256-SHA:ECDHE-ECDSA-AES256-SHA:DHE-RSA-AES128-SHA256:DHE-RSA-AES128-SHA:DHE-DSS-AES128-SHA256:DHE-RSA-AES256-SHA256:DHE-DSS-AES256-SHA:DHE-RSA-AES256-SHA:ECDHE-RSA-DES-CBC3-SHA:ECDHE-ECDSA-DES-CBC3-SHA:EDH-RSA-DES-CBC3-SHA:AES128-GCM-SHA256:AES256-GCM-SHA384:AES128-SHA256:AES256-SHA256:AES128-SHA:AES256-SHA:AES:DES-CBC3-SHA:HIGH:SEED:!aNULL:!eNULL:!EXPORT:!DES:!RC4:!MD5:!PSK:!RSAPSK:!aDH:!aECDH:!EDH-DSS-DES-CBC3-SHA:!KRB5-DES-CBC3-SHA:!SRP:@SECLEVEL=0",
                dhParameters: .dh1024),
            expectation: .trusted, rule: goodChainRule,
            networkOnly:
                "SSLv3: badssl's server also accepts it; this OpenSSL has no SSLv3, so the lab serves TLS 1.0 to 1.2",
            ats: [atsDefault(.trusted, "what the server allows does not matter: it agrees to TLS 1.2 with ECDHE-GCM")]),
        badssl(
            .badsslCipherSuites, "null",
            lesson: "NULL and anonymous suites only: no encryption or no authentication; no client offers them.",
            tls: LabServerTLS(
                .tls1_1, .tls1_2, cipherList: "NULL:aNULL:eNULL:!RC4:!EXPORT:!DES:!CBC:!3DES:!MD5:!PSK:@SECLEVEL=0"),
            expectation: handshakeFails,
            rule:
                "no client offers a NULL or anonymous suite (nor does trustx): no suite in common, the handshake fails (-1200; docs/connecting.md)",
            networkOnly: "the cipher suite: the handshake fails before any certificate is sent",
            ats: [atsDefault(handshakeFails, noATSSuite)]),
        badssl(
            .badsslCipherSuites, "3des",
            lesson:
                "Only 3DES suites (Sweet32): Apple's stack offers them only in its compatibility group, never under ATS.",
            tls: nil, expectation: handshakeFails, rule: refusedSuites("3DES"),
            networkOnly: refusedBeforeCertificate,
            ats: [atsDefault(handshakeFails, noATSSuite + "; the server's alert says so")], legacy: .tripleDES),
        badssl(
            .badsslCipherSuites, "rc4",
            lesson: "Only RC4 suites: banned by RFC 7465, offered by no current Apple system.",
            tls: nil, expectation: handshakeFails, rule: refusedSuites("RC4"),
            networkOnly: refusedBeforeCertificate,
            ats: [atsDefault(handshakeFails, noATSSuite + "; the server's alert says so")], legacy: .rc4),
        badssl(
            .badsslCipherSuites, "rc4-md5",
            lesson: "RC4 with an MD5 MAC only: banned by RFC 7465, offered by no current Apple system.",
            tls: nil, expectation: handshakeFails, rule: refusedSuites("RC4 with MD5"),
            networkOnly: refusedBeforeCertificate,
            ats: [atsDefault(handshakeFails, noATSSuite + "; the server's alert says so")], legacy: .rc4MD5),
    ]

    /// A DHE-only server with `dh` (badssl's key-exchange folder: TLS 1.1 and 1.2, DHE suites).
    static func dheOnly(_ dh: LabDHParameters) -> LabServerTLS {
        LabServerTLS(.tls1_1, .tls1_2, cipherList: dheCiphers, dhParameters: dh)
    }

    /// No Apple group used by URLSession offers DHE, so the group's size or shape never matters.
    static let noDHE =
        "ATS offers ECDHE and TLS 1.3 only; Apple keeps DHE in its legacy group (tls_ciphersuite_group_legacy), which ATS never uses: no suite in common (-1200, errSSLATSCiphersuiteViolation -9882)"

    static let badsslKeyExchange: [LabScenario] = [
        badssl(
            .badsslKeyExchange, "dh480",
            lesson: "DHE with a 480-bit prime: broken in hours; Apple's stack never offers DHE.",
            tls: dheOnly(.dh480), expectation: handshakeFails,
            rule:
                "OpenSSL 3 will not compute with a modulus under 512 bits (DH_R_MODULUS_TOO_SMALL): the server's key exchange fails and so does the handshake (-1200)",
            networkOnly: "the key exchange: decided in the handshake, before any certificate is judged",
            ats: [atsDefault(handshakeFails, noDHE)]),
        badssl(
            .badsslKeyExchange, "dh512",
            lesson: "DHE with a 512-bit prime (Logjam): refused by OpenSSL's client, never offered by Apple's stack.",
            tls: dheOnly(.dh512), expectation: handshakeFails,
            rule:
                "OpenSSL's client refuses DH groups under 1,024 bits even at security level 0 (dh key too small): the handshake fails (-1200)",
            networkOnly: "the key exchange: decided in the handshake, before any certificate is judged",
            ats: [atsDefault(handshakeFails, noDHE)]),
        badssl(
            .badsslKeyExchange, "dh1024",
            lesson: "DHE with a 1,024-bit prime: within reach of a state; Apple's stack never offers DHE.",
            tls: dheOnly(.dh1024), expectation: .trusted,
            rule:
                "OpenSSL's client accepts DH groups of 1,024 bits and more at security level 0; the chain is good (docs/connecting.md)",
            networkOnly: "the key exchange: an ATS client offers no DHE suite and fails (-1200)",
            ats: [atsDefault(handshakeFails, noDHE)]),
        badssl(
            .badsslKeyExchange, "dh2048",
            lesson: "DHE with RFC 7919's 2,048-bit group: sound, yet refused by ATS, which wants ECDHE.",
            tls: dheOnly(.ffdhe2048), expectation: .trusted,
            rule: "DHE with a sound group; the chain is good (docs/connecting.md)",
            networkOnly: "the key exchange: an ATS client offers no DHE suite and fails (-1200)",
            ats: [atsDefault(handshakeFails, noDHE)]),
        badssl(
            .badsslKeyExchange, "dh-composite",
            lesson:
                "DHE over a composite modulus: the discrete log is easy; clients that do not test the prime accept it.",
            tls: dheOnly(.composite), expectation: .trusted,
            rule:
                "OpenSSL's client does not test the server's DH prime (nor did old browsers): the observer completes the handshake; the chain is good",
            networkOnly: "the key exchange: an ATS client offers no DHE suite and fails (-1200)",
            ats: [atsDefault(handshakeFails, noDHE)]),
        badssl(
            .badsslKeyExchange, "dh-small-subgroup",
            lesson: "DHE whose generator lies in a small subgroup: the shared secret takes few values.",
            tls: dheOnly(.smallSubgroup), expectation: .trusted,
            rule:
                "OpenSSL's client does not test the generator's order: the observer completes the handshake; the chain is good",
            networkOnly: "the key exchange: an ATS client offers no DHE suite and fails (-1200)",
            ats: [atsDefault(handshakeFails, noDHE)]),
        badssl(
            .badsslKeyExchange, "static-rsa",
            lesson: "RSA key exchange only (kRSA): no forward secrecy; ATS refuses it unless the app opts out.",
            tls: LabServerTLS(.tls1_1, .tls1_2, cipherList: "kRSA:@SECLEVEL=0"), expectation: .trusted,
            rule: "without ATS the RSA key exchange is accepted; the chain is good (docs/ats.md)",
            networkOnly:
                "the key exchange: under ATS the handshake fails (-1200) unless NSExceptionRequiresForwardSecrecy is NO",
            ats: [
                atsDefault(handshakeFails, noATSSuite),
                LabATSCase(
                    "forward-secrecy-off", requiresForwardSecrecy: false, .trusted,
                    "NSExceptionRequiresForwardSecrecy NO adds Apple's RSA key-exchange suites (tls_ciphersuite_group_ats_compatibility)"
                ),
            ]),
    ]

    static let badsslProtocols: [LabScenario] = [
        badssl(
            .badsslProtocols, "tls-v1-0",
            lesson: "TLS 1.0 only: URLSession's floor is TLS 1.2, so the handshake fails unless the app lowers it.",
            tls: LabServerTLS(.tls1_0, .tls1_0), expectation: handshakeFails,
            rule: "URLSession requires TLS 1.2 or later by default: no common version (-1200; docs/ats-diagnostics.md)",
            networkOnly: "the protocol version: the served chain is trusted; only the handshake fails (-1200)",
            variations: [
                LabVariation(
                    [.minimumTLS(.tls1_0)], .trusted, "offering TLS 1.0 completes the handshake; the chain is good")
            ],
            ats: [
                atsDefault(
                    handshakeFails,
                    "ATS's floor is TLS 1.2: the handshake fails (errSSLATSMinimumVersionViolation -9881)"),
                LabATSCase(
                    "tls-1.0", minimumTLSVersion: "TLSv1.0", .trusted,
                    "NSExceptionMinimumTLSVersion TLSv1.0 lowers the floor for this host"),
            ]),
        badssl(
            .badsslProtocols, "tls-v1-1", lesson: "TLS 1.1 only: below URLSession's floor of TLS 1.2.",
            tls: LabServerTLS(.tls1_1, .tls1_1), expectation: handshakeFails,
            rule: "URLSession requires TLS 1.2 or later by default: no common version (-1200; docs/ats-diagnostics.md)",
            networkOnly: "the protocol version: the served chain is trusted; only the handshake fails (-1200)",
            variations: [
                LabVariation(
                    [.minimumTLS(.tls1_1)], .trusted, "offering TLS 1.1 completes the handshake; the chain is good")
            ],
            ats: [
                atsDefault(
                    handshakeFails,
                    "ATS's floor is TLS 1.2: the handshake fails (errSSLATSMinimumVersionViolation -9881)"),
                LabATSCase(
                    "tls-1.1", minimumTLSVersion: "TLSv1.1", .trusted,
                    "NSExceptionMinimumTLSVersion TLSv1.1 lowers the floor for this host"),
            ]),
        badssl(
            .badsslProtocols, "tls-v1-2", lesson: "TLS 1.2 only: exactly URLSession's and ATS's floor; fine today.",
            tls: LabServerTLS(.tls1_2, .tls1_2), expectation: .trusted,
            rule: "TLS 1.2 meets the default minimum; the chain is good (docs/connecting.md)",
            networkOnly: "the protocol version: with --tls-min 1.3 the handshake fails (-1200)",
            ats: [atsDefault(.trusted, "TLS 1.2 with ECDHE: inside ATS's defaults")]),
        badssl(
            .badsslProtocols, "ssl-v3", lesson: "SSLv3 only (POODLE): Apple's TLS API has no SSLv3 version to ask for.",
            tls: nil, expectation: handshakeFails,
            rule:
                "the server answers with an SSL 3.0 ServerHello, which a client of TLS 1.2 and later refuses (a protocol_version alert), or, to a client offering none of SSL 3.0's suites, with a handshake_failure alert: the handshake fails (-1200; docs/lab.md#badsslcom-tls)",
            networkOnly:
                "the protocol version: the server's answer is SSL 3.0, refused before any certificate is judged",
            ats: [
                atsDefault(
                    handshakeFails,
                    "ATS offers TLS 1.2 and later with forward-secret suites only, none of them SSL 3.0's: the server answers with a handshake_failure alert (\(peerHandshakeFail))"
                )
            ], legacy: .ssl3),
        badssl(
            .badsslProtocols, "ssl-v2",
            lesson: "SSLv2 only (DROWN): neither Apple's TLS API nor OpenSSL has it any more.",
            tls: nil, expectation: handshakeFails,
            rule:
                "the server answers with an SSL 2.0 SERVER-HELLO, whose record format no TLS client reads: the handshake fails (-1200; docs/lab.md#badsslcom-tls)",
            networkOnly:
                "the protocol version: the server's answer is SSL 2.0, refused before any certificate is judged",
            ats: [atsDefault(handshakeFails, "an SSL 2.0 answer to ATS's TLS 1.2 ClientHello: the handshake fails")],
            legacy: .ssl2),
    ]
}
