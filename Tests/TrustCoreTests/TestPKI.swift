import Synchronization
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// A length of time for validity periods: `TestPKI.now - .days(30)`.
struct Span: Sendable {
    var seconds: Int64
    static func days(_ n: Int) -> Span { Span(seconds: Int64(n) * 86_400) }
    static func hours(_ n: Int) -> Span { Span(seconds: Int64(n) * 3_600) }
    static func seconds(_ n: Int) -> Span { Span(seconds: Int64(n)) }
    static func + (a: Span, b: Span) -> Span { Span(seconds: a.seconds + b.seconds) }
}

extension Timestamp {
    static func + (t: Timestamp, s: Span) -> Timestamp { t.adding(seconds: s.seconds) }
    static func - (t: Timestamp, s: Span) -> Timestamp { t.adding(seconds: -s.seconds) }
}

/// A certificate with the key that certifies others below it.
struct Issued: Sendable {
    var certificate: Certificate
    var key: KeyPair
}

/// A system trust store holding test roots: evaluating with it models Apple's "system root"
/// anchor class.
struct TestStore: IssuerSource {
    var roots: [Certificate]
    func certificates(withSubject name: DistinguishedName) -> [Certificate] {
        roots.filter { $0.subject.matches(name) }
    }
    func contains(_ certificate: Certificate) -> Bool { roots.contains(certificate) }
    var location: String { "test store" }
}

/// Test PKI built in code, with Apple-compliant defaults: P-256 keys, CA certificates with
/// critical basicConstraints and keyUsage, leaves with serverAuth EKU, a SAN for the host and a
/// one-year lifetime starting after 2020-09-01, all valid at `now`.
enum TestPKI {
    /// The evaluation time every test uses unless it says otherwise.
    static let now = date(2025, 6, 1)
    static let host = "www.example.com"

    static func date(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0) -> Timestamp {
        Timestamp(year: year, month: month, day: day, hour: hour)!
    }

    // RSA generation is slow (RSA-3072 takes up to a second): share keys by kind.
    private static let keyCache = Mutex<[KeyKind: KeyPair]>([:])

    /// A key of `kind` shared by every test that asks for one.
    static func sharedKey(_ kind: KeyKind) throws -> KeyPair {
        if let key = keyCache.withLock({ $0[kind] }) { return key }
        let key = try KeyPair.generate(kind)
        return keyCache.withLock { cache in
            if let existing = cache[kind] { return existing }
            cache[kind] = key
            return key
        }
    }

    static func name(_ cn: String) -> NameBuilder { [.organization("trustx tests"), .commonName(cn)] }

    /// A self-signed CA.
    static func root(
        _ cn: String = "Test Root", key: KeyPair? = nil, notBefore: Timestamp = now - .days(365),
        notAfter: Timestamp = now + .days(3650), configure: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Issued {
        let key = try key ?? KeyPair.generate(.ecP256)
        var b = CertificateBuilder(subject: name(cn), publicKey: key, notBefore: notBefore, notAfter: notAfter)
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        configure(&b)
        return Issued(certificate: try b.selfSign(key: key), key: key)
    }

    /// A CA certified by `issuer`.
    static func intermediate(
        _ cn: String = "Test Intermediate", issuer: Issued, key: KeyPair? = nil,
        notBefore: Timestamp = now - .days(180), notAfter: Timestamp = now + .days(1825),
        configure: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Issued {
        let key = try key ?? KeyPair.generate(.ecP256)
        var b = CertificateBuilder(subject: name(cn), publicKey: key, notBefore: notBefore, notAfter: notAfter)
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        configure(&b)
        return Issued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
    }

    /// A TLS server certificate for `host` certified by `issuer`.
    static func leaf(
        _ host: String = host, issuer: Issued, key: KeyPair? = nil, notBefore: Timestamp = now - .days(30),
        lifetime: Span = .days(365), configure: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Issued {
        let key = try key ?? KeyPair.generate(.ecP256)
        let b = leafBuilder(host, key: key, notBefore: notBefore, lifetime: lifetime, configure: configure)
        return Issued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
    }

    /// A self-signed TLS server certificate for `host`.
    static func selfSignedLeaf(
        _ host: String = host, key: KeyPair? = nil, notBefore: Timestamp = now - .days(30),
        lifetime: Span = .days(365), configure: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Issued {
        let key = try key ?? KeyPair.generate(.ecP256)
        let b = leafBuilder(host, key: key, notBefore: notBefore, lifetime: lifetime, configure: configure)
        return Issued(certificate: try b.selfSign(key: key), key: key)
    }

    static func leafBuilder(
        _ host: String, key: KeyPair, notBefore: Timestamp, lifetime: Span,
        configure: (inout CertificateBuilder) -> Void
    ) -> CertificateBuilder {
        var b = CertificateBuilder(
            subject: name(host), publicKey: key, notBefore: notBefore,
            notAfter: notBefore + lifetime)
        b.keyUsage = .init([.digitalSignature])
        b.extendedKeyUsage = .init([.serverAuth])
        if let ip = parseIPAddress(host) {
            b.subjectAltNames = .init([.ipAddress(ip)])
        } else {
            b.subjectAltNames = .dns(host)
        }
        configure(&b)
        return b
    }

    /// Root, intermediate and leaf with every default.
    struct Chain {
        var root: Issued
        var intermediate: Issued
        var leaf: Issued
        /// What a server presents: leaf and intermediate.
        var presented: [Certificate] { [leaf.certificate, intermediate.certificate] }
    }

    static func chain(
        host: String = host, leafKey: KeyPair? = nil,
        configureLeaf: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Chain {
        let root = try root()
        let intermediate = try intermediate(issuer: root)
        let leaf = try leaf(host, issuer: intermediate, key: leafKey, configure: configureLeaf)
        return Chain(root: root, intermediate: intermediate, leaf: leaf)
    }

    // MARK: - Settings

    /// SSL policy (with `host` unless nil) and custom anchors.
    static func ssl(
        _ host: String? = host, anchors: [Certificate] = [], system: [Certificate]? = nil, anchorsOnly: Bool = true,
        anchorClass: CustomAnchorClass = .app, pins: [[UInt8]] = [], time: Timestamp = now
    ) -> TrustSettings {
        TrustSettings(
            anchors: anchors, anchorsOnly: anchorsOnly, customAnchorClass: anchorClass,
            systemStore: system.map { TestStore(roots: $0) },
            policy: .ssl(host: host), pins: PinSet(digests: pins), time: time)
    }

    /// Basic X.509 policy and custom anchors.
    static func basic(anchors: [Certificate] = [], system: [Certificate]? = nil, time: Timestamp = now)
        -> TrustSettings
    {
        TrustSettings(
            anchors: anchors, systemStore: system.map { TestStore(roots: $0) }, policy: .basicX509,
            time: time)
    }
}

/// One evaluator for the whole test run (its signature cache only remembers results).
let sharedEvaluator = Evaluator()

/// Evaluates `chain` (leaf first) under `settings`.
func evaluate(_ chain: [Certificate], _ settings: TrustSettings, file: StaticString = #filePath, line: UInt = #line)
    throws -> Evaluation
{
    try XCTUnwrap(sharedEvaluator.evaluate(chain: chain, settings: settings), "empty chain", file: file, line: line)
}

extension Step {
    /// `id@certificate:status`, with the OSStatus of a failure: `hostname@0:failed(-67602)`.
    var summary: String {
        let where_ = certificate.map(String.init) ?? "-"
        let code = osstatus.map { "(\($0))" } ?? ""
        return "\(id.rawValue)@\(where_):\(status.identifier)\(code)"
    }
}

extension Evaluation {
    /// Summaries of the failed steps, in check order.
    var failureSummaries: [String] { failures.map(\.summary) }
    /// Summaries of every step, in check order.
    var stepSummaries: [String] { steps.map(\.summary) }
    /// The single step with `id` about certificate `index` (nil for path-level steps).
    func step(_ id: StepID, _ index: Int?) -> Step? {
        let matching = steps.filter { $0.id == id && $0.certificate == index }
        return matching.count == 1 ? matching[0] : nil
    }
    /// The display names of the built path, leaf first.
    var pathNames: [String] { path.certificates.map(\.displayName) }
}

/// Asserts the parts of a verdict that Apple's APIs expose.
func assertVerdict(
    _ e: Evaluation, trusted: Bool, osstatus: Int32, urlError: Int?, resultType: TrustResultType? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(e.verdict.trusted, trusted, "trusted; steps: \(e.failureSummaries)", file: file, line: line)
    XCTAssertEqual(e.verdict.osstatus, osstatus, "osstatus; steps: \(e.failureSummaries)", file: file, line: line)
    XCTAssertEqual(e.verdict.urlError, urlError, "urlError", file: file, line: line)
    if let resultType {
        XCTAssertEqual(e.verdict.resultType, resultType, "resultType", file: file, line: line)
    }
}

/// `chain` evaluated under the `webpki` profile with `anchor`, the Baseline Requirements on or off
/// (`br`): RFC 5280 alone where x509-limbo's RFC 5280 cases expect it.
func webpki(_ chain: [Certificate], anchor: Certificate, host: String? = TestPKI.host, br: Bool = true) throws
    -> Evaluation
{
    var s = TestPKI.ssl(host, anchors: [anchor])
    s.profile = .webpki
    s.caBrowserForumRules = br
    return try evaluate(chain, s)
}
