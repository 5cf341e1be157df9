import ATSModel
import TrustBuilder

extension LabScenarioGroup {
    /// App Transport Security lessons: servers named under `trustx.test` (ATS exempts loopback
    /// addresses and local names), each with Info.plists to try.
    public static let ats = LabScenarioGroup(id: "ats", title: "App Transport Security", firstPortOffset: 23)
}

extension LabScenario {
    /// The ATS group, in teaching order.
    static let ats: [LabScenario] = [
        LabScenario(
            group: .ats, name: "tls11-only",
            lesson: "A server stuck at TLS 1.1: refused by URLSession and ATS, unless an exception lowers the floor.",
            host: "tls11-only.trustx.test", anchor: .libraryTestCA,
            // URLSession and ATS require TLS 1.2; the server offers 1.1 only: no common version,
            // the handshake fails before any evaluation -> secureConnectionFailed.
            expectation: LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
            rule:
                "TLS 1.2 or later by default: no common version, the handshake fails before any evaluation (URLError -1200; docs/ats-diagnostics.md)",
            networkOnly: "the protocol version: the served chain is trusted; only the handshake fails (-1200)",
            variations: [
                LabVariation(
                    [.minimumTLS(.tls1_1)], .trusted,
                    "offering TLS 1.1 completes the handshake, and the chain is as good as good's")
            ], serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                LabServedChain(try p.lab.namedLeaf(host: s.host, key: try KeyPair.generate(.ecP256)))
            },
            atsCases: [
                LabATSCase(
                    "ats-default", LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
                    "ATS's floor is TLS 1.2: the handshake fails"),
                LabATSCase(
                    "tls-1.1", minimumTLSVersion: "TLSv1.1", .trusted,
                    "NSExceptionMinimumTLSVersion TLSv1.1 lowers the floor for this host: the smallest exception"),
                LabATSCase(
                    "tls-1.0", minimumTLSVersion: "TLSv1.0", .trusted,
                    "TLSv1.0 lowers it further than needed, which also works"),
                LabATSCase(
                    "tls-1.1-misspelt", minimumTLSVersion: "TLSV1.1",
                    LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
                    "ATS honours only the exact spellings: TLSV1.1 is ignored and the floor stays TLS 1.2"),
            ],
            serverTLS: LabServerTLS(.tls1_1, .tls1_1)),
        LabScenario(
            group: .ats, name: "no-forward-secrecy",
            lesson: "A TLS 1.2 server with RSA key exchange only: no forward secrecy, refused by ATS.",
            host: "no-forward-secrecy.trustx.test", anchor: .libraryTestCA,
            // Without ATS the probe accepts RSA key exchange; the RSA-2048 leaf for the host
            // passes every SSL check under the custom anchor.
            expectation: .trusted,
            rule:
                "without ATS the RSA key exchange is accepted, and any custom anchor is trusted (docs/steps.md#anchor)",
            networkOnly:
                "the key exchange: under ATS the handshake fails (-1200) unless NSExceptionRequiresForwardSecrecy is NO",
            variations: [], serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                LabServedChain(try p.lab.namedLeaf(host: s.host, key: p.lab.staticRSAKey))
            },
            atsCases: [
                LabATSCase(
                    "ats-default", LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
                    "ATS offers only ECDHE suites: no cipher suite in common, the handshake fails"),
                LabATSCase(
                    "forward-secrecy-off", requiresForwardSecrecy: false, .trusted,
                    "NSExceptionRequiresForwardSecrecy NO adds the RSA key-exchange suites"),
                LabATSCase(
                    "tls-1.0", minimumTLSVersion: "TLSv1.0",
                    LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
                    "a version exception does not add cipher suites: still no suite in common"),
            ],
            // RSA key exchange only; TLS 1.3 always has forward secrecy, so it is off.
            serverTLS: LabServerTLS(
                .tls1_2, .tls1_2,
                cipherList: "AES256-GCM-SHA384:AES128-GCM-SHA256:AES256-SHA:AES128-SHA:@SECLEVEL=0")),
        LabScenario(
            group: .ats, name: "pin-rotated",
            lesson: "NSPinnedDomains after the server's key rotated: the old leaf pin fails, the CA pin survives.",
            host: "pin-rotated.trustx.test", anchor: .libraryTestCA,
            // No pins: the new leaf is as good as good's (for its DNS name), so evaluation passes.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted; NSPinnedDomains then needs a leaf identity matching the leaf and a CA identity matching an issuer of the built path (docs/ats.md)",
            networkOnly: nil, variations: [], serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                LabServedChain(try p.lab.namedLeaf(host: s.host, key: try KeyPair.generate(.ecP256)))
            },
            atsCases: [
                LabATSCase(
                    "old-leaf-pin", leafPins: [.pinRotatedOldLeaf], anchorClass: .device,
                    LabExpectation(trusted: false, osstatus: -9886, urlError: -1200),
                    "the only leaf identity is the old key's: errSSLATSCertificateTrustViolation, the connection fails"),
                LabATSCase(
                    "ca-pin", caPins: [.libraryTestCA], anchorClass: .device, .trusted,
                    "the CA identity matches Library Test CA, the built path's anchor: it survives the leaf's rotation"),
                LabATSCase(
                    "old-leaf-and-ca-pin", leafPins: [.pinRotatedOldLeaf], caPins: [.libraryTestCA],
                    anchorClass: .device,
                    LabExpectation(trusted: false, osstatus: -9886, urlError: -1200),
                    "leaf and CA identities must both match: the CA pin does not rescue a stale leaf pin"),
            ]),
    ]
}
