import Synchronization
import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

extension TestPKI {
    /// A length of time for validity periods: `TestPKI.now - .days(30)`.
    public struct Span: Sendable {
        /// The length in seconds.
        public var seconds: Int64
        /// `n` days.
        public static func days(_ n: Int) -> Span { Span(seconds: Int64(n) * 86_400) }
        /// `n` hours.
        public static func hours(_ n: Int) -> Span { Span(seconds: Int64(n) * 3_600) }
        /// `n` seconds.
        public static func seconds(_ n: Int) -> Span { Span(seconds: Int64(n)) }
        /// The two lengths one after the other.
        public static func + (a: Span, b: Span) -> Span { Span(seconds: a.seconds + b.seconds) }
    }
}

extension Timestamp {
    /// `s` later.
    public static func + (t: Timestamp, s: TestPKI.Span) -> Timestamp { t.adding(seconds: s.seconds) }
    /// `s` earlier.
    public static func - (t: Timestamp, s: TestPKI.Span) -> Timestamp { t.adding(seconds: -s.seconds) }
}

/// A certificate with the key that certifies others below it.
public struct Issued: Sendable {
    /// The certificate.
    public var certificate: Certificate
    /// Its subject's key pair.
    public var key: KeyPair

    /// The certificate and its key.
    public init(certificate: Certificate, key: KeyPair) {
        self.certificate = certificate
        self.key = key
    }
}

/// A system trust store holding test roots: evaluating with it models Apple's "system root"
/// anchor class.
public struct TestStore: IssuerSource {
    /// The store's roots.
    public var roots: [Certificate]
    /// A store holding `roots`.
    public init(roots: [Certificate]) { self.roots = roots }
    /// The roots whose subject is `name`.
    public func certificates(withSubject name: DistinguishedName) -> [Certificate] {
        roots.filter { $0.subject.matches(name) }
    }
    /// Whether `certificate` is one of the roots.
    public func contains(_ certificate: Certificate) -> Bool { roots.contains(certificate) }
    /// The store's name in reports.
    public var location: String { "test store" }
}

/// Test PKI built in code, with Apple-compliant defaults: P-256 keys, CA certificates with
/// critical basicConstraints and keyUsage, leaves with serverAuth EKU, a SAN for the host and a
/// one-year lifetime starting after 2020-09-01, all valid at `now`. The in-memory face of the one
/// test PKI (D347); the files on disk (`probe`, `cli`) are its other face.
extension TestPKI {
    /// The evaluation time every test uses unless it says otherwise.
    public static let now = date(2025, 6, 1)
    /// The host every leaf names unless the test says otherwise.
    public static let host = "www.example.com"

    /// Midnight (or `hour`) UTC on the day.
    public static func date(_ year: Int, _ month: Int, _ day: Int, hour: Int = 0) -> Timestamp {
        Timestamp(year: year, month: month, day: day, hour: hour)!
    }

    // RSA generation is slow (RSA-3072 takes up to a second): share keys by kind.
    private static let keyCache = Mutex<[KeyKind: KeyPair]>([:])

    /// A key of `kind` shared by every test that asks for one.
    public static func sharedKey(_ kind: KeyKind) throws -> KeyPair {
        if let key = keyCache.withLock({ $0[kind] }) { return key }
        let key = try KeyPair.generate(kind)
        return keyCache.withLock { cache in
            if let existing = cache[kind] { return existing }
            cache[kind] = key
            return key
        }
    }

    /// The subject name `O=trustx tests, CN=cn`.
    public static func name(_ cn: String) -> NameBuilder { [.organization("trustx tests"), .commonName(cn)] }

    /// A self-signed CA.
    public static func root(
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
    public static func intermediate(
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
    public static func leaf(
        _ host: String = host, issuer: Issued, key: KeyPair? = nil, notBefore: Timestamp = now - .days(30),
        lifetime: Span = .days(365), configure: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Issued {
        let key = try key ?? KeyPair.generate(.ecP256)
        let b = leafBuilder(host, key: key, notBefore: notBefore, lifetime: lifetime, configure: configure)
        return Issued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
    }

    /// A self-signed TLS server certificate for `host`.
    public static func selfSignedLeaf(
        _ host: String = host, key: KeyPair? = nil, notBefore: Timestamp = now - .days(30),
        lifetime: Span = .days(365), configure: (inout CertificateBuilder) -> Void = { _ in }
    ) throws -> Issued {
        let key = try key ?? KeyPair.generate(.ecP256)
        let b = leafBuilder(host, key: key, notBefore: notBefore, lifetime: lifetime, configure: configure)
        return Issued(certificate: try b.selfSign(key: key), key: key)
    }

    /// The builder of a leaf for `host`, before signing.
    public static func leafBuilder(
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
    public struct Chain: Sendable {
        /// The self-signed root.
        public var root: Issued
        /// The CA between root and leaf.
        public var intermediate: Issued
        /// The server certificate.
        public var leaf: Issued
        /// What a server presents: leaf and intermediate.
        public var presented: [Certificate] { [leaf.certificate, intermediate.certificate] }

        /// The three, as issued.
        public init(root: Issued, intermediate: Issued, leaf: Issued) {
            self.root = root
            self.intermediate = intermediate
            self.leaf = leaf
        }
    }

    /// A root, an intermediate and a leaf for `host`, the leaf configured by `configureLeaf`.
    public static func chain(
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
    public static func ssl(
        _ host: String? = host, anchors: [Certificate] = [], system: [Certificate]? = nil, anchorsOnly: Bool = true,
        anchorClass: CustomAnchorClass = .app, pins: [[UInt8]] = [], time: Timestamp = now
    ) -> TrustSettings {
        TrustSettings(
            anchors: anchors, anchorsOnly: anchorsOnly, customAnchorClass: anchorClass,
            systemStore: system.map { TestStore(roots: $0) },
            policy: .ssl(host: host), pins: PinSet(digests: pins), time: time)
    }

    /// Basic X.509 policy and custom anchors.
    public static func basic(anchors: [Certificate] = [], system: [Certificate]? = nil, time: Timestamp = now)
        -> TrustSettings
    {
        TrustSettings(
            anchors: anchors, systemStore: system.map { TestStore(roots: $0) }, policy: .basicX509,
            time: time)
    }
}
