import ATSModel
import TrustCore

/// What a client should conclude about one lab server: the verdict, Apple's OSStatus and the
/// URLError URLSession would report.
public struct LabExpectation: Hashable, Sendable, CustomStringConvertible {
    /// Whether the connection would proceed.
    public var trusted: Bool
    /// What SecTrustEvaluateWithError returns (0 = errSecSuccess); nil when the connection fails
    /// before any trust evaluation (a handshake failure).
    public var osstatus: Int32?
    /// The URLError URLSession reports, nil when the request succeeds.
    public var urlError: Int?

    /// Creates an expectation.
    public init(trusted: Bool, osstatus: Int32?, urlError: Int?) {
        self.trusted = trusted
        self.osstatus = osstatus
        self.urlError = urlError
    }

    /// Trusted: errSecSuccess and no URLError.
    public static let trusted = LabExpectation(trusted: true, osstatus: 0, urlError: nil)

    /// Rejected by evaluation with `osstatus` while the app's delegate decides (custom anchors or
    /// pins): the delegate cancels the challenge, so URLSession reports -999 (docs/steps.md#urlerror,
    /// `TrustSettings.delegateDecides`).
    public static func rejectedByDelegate(_ osstatus: Int32) -> LabExpectation {
        LabExpectation(trusted: false, osstatus: osstatus, urlError: -999)
    }

    /// Rejected by URLSession's default handling (no custom anchor, no pin): -1202 (docs/steps.md#urlerror).
    public static func rejectedByDefault(_ osstatus: Int32) -> LabExpectation {
        LabExpectation(trusted: false, osstatus: osstatus, urlError: -1202)
    }

    /// `trusted`, `-67602 / -999` or `no evaluation / -1200`.
    public var description: String {
        if trusted { return "trusted" }
        let status = osstatus.map { "\($0)" } ?? "no evaluation"
        return "\(status) / URLError \(urlError.map { "\($0)" } ?? "none")"
    }
}

/// The certificates the lab offers as `--anchor` files.
public enum LabAnchor: String, Hashable, Sendable, CaseIterable {
    /// The private CA of the walkthrough in docs/lab.md, the anchor of almost every scenario.
    case libraryTestCA = "library-test-ca"
    /// A second CA, which signs the rogue-ca server (trusting a CA trusts all it signs).
    case rogueCA = "rogue-ca"
    /// The root of untrusted-root: a CA nobody told the client about.
    case untrustedRoot = "untrusted-root-ca"
    /// The self-signed scenario's certificate itself, for "anchor a self-signed leaf".
    case selfSigned = "self-signed"

    /// The file name in the lab folder.
    public var fileName: String { "\(rawValue).pem" }
}

/// A key whose SPKI SHA-256 pin a lesson uses.
public enum LabPin: String, Hashable, Sendable, CaseIterable {
    /// The good server's leaf key (the walkthrough's pin).
    case goodLeaf = "good-leaf"
    /// The rsa-2048 server's leaf key (the lessons' RSA pin).
    case rsa2048Leaf = "rsa-2048-leaf"
    /// The key the key-rotated server used before rotation (the stale pin).
    case rotatedAwayLeaf = "key-rotated-old-leaf"
    /// Library Test CA's key (a backup pin that survives leaf rotation).
    case libraryTestCA = "library-test-ca"
    /// The key pin-rotated's server used before rotation (its NSPinnedDomains leaf identity).
    case pinRotatedOldLeaf = "pin-rotated-old-leaf"
}

/// An App Transport Security configuration a lesson tries for the scenario's host, and what an
/// app with it concludes: the Info.plist's NSAppTransportSecurity, with an NSExceptionDomains
/// and/or NSPinnedDomains entry for the host when a key is set.
public struct LabATSCase: Hashable, Sendable {
    /// A short name, also the file stem of the Info.plist the lab writes (`NAME.LABEL.plist`).
    public var label: String
    /// NSExceptionMinimumTLSVersion, exactly as written.
    public var minimumTLSVersion: String?
    /// NSExceptionRequiresForwardSecrecy.
    public var requiresForwardSecrecy: Bool?
    /// NSPinnedLeafIdentities (nil: absent).
    public var leafPins: [LabPin]?
    /// NSPinnedCAIdentities (nil: absent).
    public var caPins: [LabPin]?
    /// How the scenario's anchor is trusted: NSPinnedDomains lessons put it on the device (a
    /// profile), so no delegate is involved and a pin failure reaches the app as URLSession's own
    /// -1200; with an app-set anchor the delegate's evaluation fails instead and it cancels (-999).
    public var anchorClass: CustomAnchorClass
    /// What the app concludes.
    public var expectation: LabExpectation
    /// Why, in one sentence.
    public var why: String

    /// Creates a case.
    public init(
        _ label: String, minimumTLSVersion: String? = nil, requiresForwardSecrecy: Bool? = nil,
        leafPins: [LabPin]? = nil, caPins: [LabPin]? = nil, anchorClass: CustomAnchorClass = .app,
        _ expectation: LabExpectation, _ why: String
    ) {
        self.anchorClass = anchorClass
        self.label = label
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.leafPins = leafPins
        self.caPins = caPins
        self.expectation = expectation
        self.why = why
    }

    /// The NSAppTransportSecurity dictionary for `host`, with `pins` giving each lesson key's
    /// SPKI SHA-256 in base64.
    public func configuration(host: String, pins: [LabPin: String]) -> ATSConfiguration {
        var c = ATSConfiguration()
        if minimumTLSVersion != nil || requiresForwardSecrecy != nil {
            c.exceptionDomains = [
                ATSExceptionDomain(
                    domain: host, minimumTLSVersionText: minimumTLSVersion,
                    requiresForwardSecrecy: requiresForwardSecrecy)
            ]
        }
        if leafPins != nil || caPins != nil {
            func identities(_ list: [LabPin]?) -> [PinnedIdentity]? {
                list.map { $0.map { PinnedIdentity(text: pins[$0] ?? "") } }
            }
            c.pinnedDomains = [
                PinnedDomain(domain: host, leafIdentities: identities(leafPins), caIdentities: identities(caPins))
            ]
        }
        return c
    }
}

/// One argument of a `trustx check` variation; paths and pins are known only once the lab runs.
public enum LabArgument: Hashable, Sendable {
    /// Used as written.
    case literal(String)
    /// The path of an anchor file.
    case anchorPath(LabAnchor)
    /// `sha256//BASE64` of a lesson key.
    case pin(LabPin)
    /// The path of the learner's client identity (PKCS#12).
    case clientIdentityPath
    /// The password of the learner's client identity.
    case clientIdentityPassword
}

/// The same server checked with other settings than the default, and what happens then.
public struct LabVariation: Hashable, Sendable {
    /// The extra `trustx check` arguments (besides the URL and the scenario's `--anchor`).
    public var arguments: [LabArgument]
    /// Whether the scenario's own `--anchor` is kept (false: the arguments give every anchor).
    public var keepsScenarioAnchor: Bool
    /// What is expected with those arguments.
    public var expectation: LabExpectation
    /// Why, in one sentence.
    public var why: String

    /// Creates a variation.
    public init(
        _ arguments: [LabArgument], keepsScenarioAnchor: Bool = true, _ expectation: LabExpectation,
        _ why: String
    ) {
        self.arguments = arguments
        self.keepsScenarioAnchor = keepsScenarioAnchor
        self.expectation = expectation
        self.why = why
    }
}

/// How a scenario's server talks before and around TLS.
public enum LabProtocol: String, Hashable, Sendable {
    /// HTTPS: TLS at once, then one HTTP request answered with a text page.
    case https
    /// SMTP on a plain connection, upgraded with STARTTLS (RFC 3207).
    case smtpStartTLS = "smtp"
}

/// One lab server: a lesson, the host to reach it by, the anchor to pass, and what a client
/// should conclude under the default settings.
///
/// Default settings: SSL policy with the URL's host, the scenario's anchor as the only custom
/// anchor, minimum TLS 1.2, AIA fetching on. With a custom anchor every rejection surfaces as
/// URLError -999 (the app's delegate cancels the challenge), never -1202.
public struct LabScenario: Hashable, Sendable, Identifiable {
    /// The scenario's name, e.g. `wrong-host`.
    public var name: String
    /// The lesson in one line.
    public var lesson: String
    /// The host the URL uses: `127.0.0.1`, or `localhost` for wrong-host.
    public var host: String
    /// The anchor file to pass with `--anchor`.
    public var anchor: LabAnchor
    /// What a client concludes under the default settings.
    public var expectation: LabExpectation
    /// Which rule produces the expectation, in words: Apple's check and code, and the
    /// docs/steps.md section that explains it.
    public var rule: String
    /// What the chain evaluator alone cannot see, for scenarios decided partly on the network.
    public var networkOnly: String?
    /// Other settings worth trying, with their outcome.
    public var variations: [LabVariation]
    /// Plain HTTPS or SMTP with STARTTLS.
    public var serviceProtocol: LabProtocol
    /// The scenario's port is the port base plus this offset (stable across `--scenario` selections,
    /// so handouts keep their ports).
    public var portOffset: Int
    /// ATS configurations the lesson tries (empty for lessons without ATS).
    public var atsCases: [LabATSCase] = []

    /// Whether the URL's host is a DNS name that does not resolve (ATS exempts loopback addresses
    /// and local names, so its lessons name the server `NAME.trustx.test`): clients reach it with
    /// `--connect-to`.
    public var needsConnectTo: Bool { host.hasSuffix(".trustx.test") }

    /// The name.
    public var id: String { name }
}

extension LabScenario {
    /// The offset of the lab's HTTP server for AIA downloads from the port base.
    public static let aiaPortOffset = 99

    /// Every scenario, in teaching order.
    public static let all: [LabScenario] = [
        LabScenario(
            name: "good", lesson: "A private CA's server, trusted once its CA is the app's anchor.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // any custom anchor is trusted; the leaf has SAN IP:127.0.0.1, EKU serverAuth,
            // P-256 and a 397-day lifetime, so every SSL check passes.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted, and the SAN iPAddress matches the host (docs/steps.md#anchor, docs/steps.md#hostname)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--pin"), .pin(.goodLeaf)], .trusted,
                    "the pin matches the leaf's key and is checked after evaluation passed"),
                LabVariation(
                    [], keepsScenarioAnchor: false, .rejectedByDefault(-25318),
                    "without the anchor only system roots are trusted and Library Test CA is not one of them"),
            ], serviceProtocol: .https, portOffset: 0),
        LabScenario(
            name: "wrong-host", lesson: "The same server reached as localhost: the certificate names only 127.0.0.1.",
            host: "localhost", anchor: .libraryTestCA,
            // SSLHostname: the host `localhost` is a DNS name, compared only with SAN dNSName
            // entries; the leaf has only iPAddress 127.0.0.1 -> errSecHostNameMismatch.
            expectation: .rejectedByDelegate(-67602),
            rule: "Apple SSLHostname: the host must match a SAN entry (Name, -67602; docs/steps.md#hostname)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--policy"), .literal("basic")], .trusted,
                    "Basic X.509 has no hostname check, which hides the mismatch"),
                LabVariation(
                    [.literal("--policy"), .literal("ssl-no-host")], .trusted,
                    "SecPolicyCreateSSL(true, nil) skips the hostname check"),
            ], serviceProtocol: .https, portOffset: 1),
        LabScenario(
            name: "tls12-only", lesson: "A server stuck at TLS 1.2: fine today, refused by a client requiring TLS 1.3.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // URLSession's default minimum is TLS 1.2, so the handshake succeeds and the chain
            // (the good server's) is trusted.
            expectation: .trusted,
            rule:
                "URLSession requires TLS 1.2 or later by default; any custom anchor is trusted (docs/connecting.md, docs/steps.md#anchor)",
            networkOnly: "the protocol version: with --tls-min 1.3 the handshake fails before any evaluation (-1200)",
            variations: [
                LabVariation(
                    [.literal("--tls-min"), .literal("1.3")],
                    LabExpectation(trusted: false, osstatus: nil, urlError: -1200),
                    "no common protocol version: the handshake fails, URLError -1200")
            ], serviceProtocol: .https, portOffset: 2),
        LabScenario(
            name: "rogue-ca",
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
                    [.literal("--anchor"), .anchorPath(.rogueCA)], .trusted,
                    "both CAs are anchors: any custom anchor is trusted"),
                LabVariation(
                    [.literal("--anchor"), .anchorPath(.rogueCA), .literal("--pin"), .pin(.goodLeaf)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "evaluation passes, but the test server's pin does not match: the delegate cancels"),
            ], serviceProtocol: .https, portOffset: 3),
        LabScenario(
            name: "expired", lesson: "A leaf whose notAfter has passed.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // TemporalValidity: outside notBefore..notAfter -> errSecCertificateExpired.
            expectation: .rejectedByDelegate(-67818),
            rule: "Apple TemporalValidity: outside notBefore..notAfter (Expired, -67818; docs/steps.md#validity)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 4),
        LabScenario(
            name: "not-yet-valid", lesson: "A leaf whose notBefore is in the future (a clock or issuance mistake).",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // TemporalValidity: not-yet-valid also gives -67818 under SSL (not -67819).
            expectation: .rejectedByDelegate(-67818),
            rule:
                "Apple TemporalValidity: not yet valid reads as expired (Expired, -67818, not -67819; docs/steps.md#validity)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 5),
        LabScenario(
            name: "self-signed", lesson: "A self-signed leaf: trusted only when that very certificate is the anchor.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // a self-signed leaf that is not an anchor -> AnchorTrusted, errSecNotTrusted.
            expectation: .rejectedByDelegate(-67843),
            rule: "Apple AnchorTrusted: a self-signed leaf that is not an anchor (Trust, -67843; docs/steps.md#anchor)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--anchor"), .anchorPath(.selfSigned)], keepsScenarioAnchor: false, .trusted,
                    "a self-signed leaf set as anchor is accepted, still subject to hostname, EKU and lifetime")
            ], serviceProtocol: .https, portOffset: 6),
        LabScenario(
            name: "missing-intermediate", lesson: "The server forgets its intermediate and the leaf has no AIA URL.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // missing issuer, not supplied, not an anchor, not fetchable -> errSecCreateChainFailed.
            expectation: .rejectedByDelegate(-25318),
            rule:
                "Apple MissingIntermediate: an issuer that is neither presented nor an anchor (Trust, -25318; docs/steps.md#chain)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 7),
        LabScenario(
            name: "missing-intermediate-aia",
            lesson: "The server forgets its intermediate, but the leaf's AIA URL lets an iPhone fetch it.",
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
                    [.literal("--no-aia")], .rejectedByDelegate(-25318),
                    "without the fetch the issuer is missing, as OpenSSL and curl users see it")
            ], serviceProtocol: .https, portOffset: 8),
        LabScenario(
            name: "wrong-order", lesson: "Intermediates sent in the wrong order: Apple builds the path anyway.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // Path building: issuers are found by name among the presented certificates in
            // any order (RFC 8446 4.4.2 allows it), so the path is complete and trusted.
            expectation: .trusted,
            rule: "path building ignores presentation order; any custom anchor is trusted (docs/steps.md#chain)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 9),
        LabScenario(
            name: "untrusted-root", lesson: "A complete chain up to a root the client does not trust.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // AnchorTrusted: the path ends in a self-signed root that is not an anchor -> -67843.
            expectation: .rejectedByDelegate(-67843),
            rule:
                "Apple AnchorTrusted: the path ends at a root that is not an anchor (Trust, -67843; docs/steps.md#anchor)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--anchor"), .anchorPath(.untrustedRoot)], .trusted,
                    "trusting the root makes the same chain trusted: the anchor set is the whole difference")
            ], serviceProtocol: .https, portOffset: 10),
        LabScenario(
            name: "cn-only", lesson: "The host is only in the Common Name: Apple never reads the CN.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // only SAN entries count, the CN is never used (HT210176) -> errSecHostNameMismatch.
            expectation: .rejectedByDelegate(-67602),
            rule: "Apple SSLHostname: the Common Name is never used (Name, -67602; docs/steps.md#hostname)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--policy"), .literal("basic")], .trusted,
                    "Basic X.509 checks no name at all")
            ], serviceProtocol: .https, portOffset: 11),
        LabScenario(
            name: "client-auth-eku", lesson: "A client certificate used as a server certificate: EKU clientAuth only.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // custom anchor, leaf notBefore after 2019-06-30 -> the leaf EKU must contain
            // serverAuth -> ExtendedKeyUsage, errSecInvalidExtendedKeyUsage.
            expectation: .rejectedByDelegate(-67609),
            rule:
                "Apple ExtendedKeyUsage: a leaf under a custom anchor needs serverAuth (Usage, -67609; docs/steps.md#extended-key-usage)",
            networkOnly: nil,
            variations: [
                LabVariation([.literal("--policy"), .literal("basic")], .trusted, "Basic X.509 has no EKU check")
            ], serviceProtocol: .https, portOffset: 12),
        LabScenario(
            name: "rsa-1024", lesson: "An RSA-1024 leaf: too small for TLS since 2017, custom anchor or not.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // KeySize: SSL policy, RSA < 2048 anywhere in the chain -> errSecUnsupportedKeySize.
            expectation: .rejectedByDelegate(-67735),
            rule: "Apple KeySize: RSA keys below 2048 bits fail under SSL (KeySize, -67735; docs/steps.md#key-size)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--policy"), .literal("basic")], .trusted,
                    "Basic X.509 only refuses RSA < 1024 (WeakKeySize)")
            ], serviceProtocol: .https, portOffset: 13),
        LabScenario(
            name: "sha1-signature", lesson: "A leaf signed with SHA-1: refused under the SSL policy.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // SignatureHashAlgorithms: SHA-1 on a non-self-signed certificate under SSL ->
            // errSecInvalidDigestAlgorithm.
            expectation: .rejectedByDelegate(-67815),
            rule:
                "Apple SignatureHashAlgorithms: no SHA-1 under SSL (WeakHash, -67815; docs/steps.md#signature-algorithm)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--policy"), .literal("basic")], .trusted,
                    "Basic X.509 only bans MD2/4/5")
            ], serviceProtocol: .https, portOffset: 14),
        LabScenario(
            name: "long-validity", lesson: "A 900-day leaf: over the 825-day maximum, even under a private CA.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // custom anchor, notBefore >= 2019-06-30T23:00Z -> at most 825 days + 1 h ->
            // ValidityPeriodMaximums, errSecCertificateValidityPeriodTooLong.
            expectation: .rejectedByDelegate(-67901),
            rule:
                "Apple ValidityPeriodMaximums: at most 825 days under a custom anchor (Compliance, -67901; docs/steps.md#validity-period-maximum)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--policy"), .literal("basic")], .trusted,
                    "Basic X.509 has no validity-period maximum")
            ], serviceProtocol: .https, portOffset: 15),
        LabScenario(
            name: "path-length", lesson: "An intermediate limited to pathLen 0 signs another CA.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // BasicConstraintsPathLen: a CA below a pathLenConstraint 0 issuer ->
            // errSecPathLengthConstraintExceeded.
            expectation: .rejectedByDelegate(-67611),
            rule:
                "Apple BasicConstraintsPathLen: a CA below a pathLenConstraint 0 issuer (Compliance, -67611; docs/steps.md#basic-constraints)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 16),
        LabScenario(
            name: "name-constraints",
            lesson: "An intermediate constrained to example.com and 10.0.0.0/8 issues for 127.0.0.1.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // NameConstraints: the leaf's iPAddress is outside the permitted subtrees ->
            // errSecInvalidName.
            expectation: .rejectedByDelegate(-67689),
            rule:
                "Apple NameConstraints: the leaf's address is outside the permitted subtrees (Compliance, -67689; docs/steps.md#name-constraints)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 17),
        LabScenario(
            name: "rsa-2048", lesson: "An RSA-2048 leaf for the exercise's RSA pin.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // RSA 2048 meets the SSL key size; otherwise identical to good.
            expectation: .trusted,
            rule: "Apple KeySize passes at RSA 2048; any custom anchor is trusted (docs/steps.md#key-size)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--pin"), .pin(.rsa2048Leaf)], .trusted,
                    "the RSA pin matches the leaf's SubjectPublicKeyInfo"),
                LabVariation(
                    [.literal("--pin"), .pin(.goodLeaf)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "the good server's pin is another key: evaluation passes, the delegate cancels"),
            ], serviceProtocol: .https, portOffset: 18),
        LabScenario(
            name: "mtls-required", lesson: "A server that requires a client certificate from the lab's client CA.",
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
                    [.literal("--client-cert"), .clientIdentityPath, .literal("--password"), .clientIdentityPassword],
                    .trusted, "with the lab's learner identity the server accepts the connection")
            ], serviceProtocol: .https, portOffset: 19),
        LabScenario(
            name: "smtp-starttls", lesson: "A mail server upgrading to TLS with STARTTLS: the same trust rules.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // custom anchor; the SSL policy applies to the STARTTLS certificate as to HTTPS.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted, and the SAN iPAddress matches the host (docs/steps.md#anchor, docs/steps.md#hostname)",
            networkOnly: nil, variations: [], serviceProtocol: .smtpStartTLS, portOffset: 20),
        LabScenario(
            name: "key-rotated",
            lesson: "The server's key changed since the lesson's pin was taken: why backup pins exist.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // the new leaf is as good as good's, so evaluation passes; pins are checked only after.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted; pins are checked after evaluation, and a single leaf pin breaks at key rotation (docs/steps.md#pin)",
            networkOnly: nil,
            variations: [
                LabVariation(
                    [.literal("--pin"), .pin(.rotatedAwayLeaf)],
                    LabExpectation(trusted: false, osstatus: 0, urlError: -999),
                    "the only pin is the old key's: evaluation passes, the delegate cancels (a single pin with no backup)"
                ),
                LabVariation(
                    [.literal("--pin"), .pin(.rotatedAwayLeaf), .literal("--pin"), .pin(.libraryTestCA)],
                    .trusted, "a backup pin on the CA's key survives the rotation"),
            ], serviceProtocol: .https, portOffset: 21),
        LabScenario(
            name: "revoked-ocsp",
            lesson: "A revoked certificate whose server staples the CA's OCSP response saying so.",
            host: "127.0.0.1", anchor: .libraryTestCA,
            // The staple is signed by Library Test CA, names this leaf and is current: Apple's
            // Revocation check fails it, fatally, whatever else passes.
            expectation: .rejectedByDelegate(-67820),
            rule:
                "Apple Revocation: the stapled OCSP response, signed by the issuer, says revoked (Revoked, -67820, fatal; docs/steps.md#revocation)",
            networkOnly:
                "the stapled OCSP response: the served chain alone is trusted; the staple in the handshake revokes it",
            variations: [], serviceProtocol: .https, portOffset: 22),
        LabScenario(
            name: "tls11-only",
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
                    [.literal("--tls-min"), .literal("1.1")], .trusted,
                    "offering TLS 1.1 completes the handshake, and the chain is as good as good's")
            ], serviceProtocol: .https, portOffset: 23,
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
            ]),
        LabScenario(
            name: "no-forward-secrecy",
            lesson: "A TLS 1.2 server with RSA key exchange only: no forward secrecy, refused by ATS.",
            host: "no-forward-secrecy.trustx.test", anchor: .libraryTestCA,
            // Without ATS the probe accepts RSA key exchange; the RSA-2048 leaf for the host
            // passes every SSL check under the custom anchor.
            expectation: .trusted,
            rule:
                "without ATS the RSA key exchange is accepted, and any custom anchor is trusted (docs/steps.md#anchor)",
            networkOnly:
                "the key exchange: under ATS the handshake fails (-1200) unless NSExceptionRequiresForwardSecrecy is NO",
            variations: [], serviceProtocol: .https, portOffset: 24,
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
            ]),
        LabScenario(
            name: "pin-rotated",
            lesson: "NSPinnedDomains after the server's key rotated: the old leaf pin fails, the CA pin survives.",
            host: "pin-rotated.trustx.test", anchor: .libraryTestCA,
            // No pins: the new leaf is as good as good's (for its DNS name), so evaluation passes.
            expectation: .trusted,
            rule:
                "any custom anchor is trusted; NSPinnedDomains then needs a leaf identity matching the leaf and a CA identity matching an issuer of the built path (docs/ats.md)",
            networkOnly: nil, variations: [], serviceProtocol: .https, portOffset: 25,
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

    /// The scenario named `name`, if any.
    public static func named(_ name: String) -> LabScenario? { all.first { $0.name == name } }
}
