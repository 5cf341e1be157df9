import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// A certificate with the key that signs below it (or that a server proves possession of).
struct LabIssued: Sendable {
    var certificate: Certificate
    var key: KeyPair
}

/// What one scenario's server presents: the chain exactly as sent and the leaf's key.
struct LabServedChain: Sendable {
    /// Leaf first, then whatever the scenario sends, in the scenario's order.
    var chain: [Certificate]
    var key: KeyPair
    /// The OCSP response the server staples, if any.
    var ocspResponse: [UInt8]?
    /// A pool's chains, one per node in node order (this one first); empty for one server.
    var nodes: [LabServedChain] = []
    /// A rotating server's chains in turn order (this one first); empty for one that does not rotate.
    var rotation: [LabServedChain] = []
}

extension LabServedChain {
    /// `leaf` followed by `rest`, on the leaf's key.
    init(_ leaf: LabIssued, _ rest: [Certificate] = []) {
        self.init(chain: [leaf.certificate] + rest, key: leaf.key)
    }
}

/// The lab's own CAs and the keys and leaves several lessons share, built in process: every
/// certificate and EC key fresh, the RSA keys from the lab's key cache (`LabKeyCache`, D148).
/// Each lesson's own leaf is its recipe (`LabScenario.chain`), made with `leaf` and `namedLeaf`.
///
/// The PKI of the private-CA walkthrough in docs/lab.md: "Library Test CA" (P-256,
/// basicConstraints CA:TRUE and no keyUsage, as `openssl req -x509` without an extension file
/// makes it) and a P-256 leaf for IP 127.0.0.1 with SAN IP:127.0.0.1, EKU serverAuth and a
/// 397-day lifetime. Everything else is a variation of that leaf that breaks exactly one rule.
struct LabPKI: Sendable {
    var libraryCA: LabIssued
    var rogueCA: LabIssued
    var untrustedRoot: LabIssued
    var clientCA: LabIssued
    var clientIdentity: LabIssued
    /// That intermediate with its key (the pool's node without its intermediate is issued by it too).
    var libraryIntermediate: LabIssued
    /// The intermediate the AIA server hands out (missing-intermediate-aia's issuer).
    var aiaIntermediate: Certificate { libraryIntermediate.certificate }
    /// The walkthrough's leaf, which the good server and the lessons that change only what is
    /// around it (host, protocol, handshake) present.
    var good: LabIssued
    /// The RSA-2048 leaf of the lessons' RSA pin.
    var rsa2048: LabIssued
    /// The self-signed leaf, which is also an anchor file.
    var selfSigned: LabIssued
    /// The RSA-2048 key of the static-RSA lesson, which badssl.com's TLS servers share too.
    var staticRSAKey: KeyPair
    var anchors: [LabAnchor: Certificate]
    /// SPKI SHA-256 of each lesson key.
    var pins: [LabPin: [UInt8]]
    /// The reference time.
    var now: Timestamp
    /// The iPAddress SAN entries of every leaf.
    var serverIPs: [String]
    /// The caIssuers URL of a leaf whose intermediate the AIA server hands out.
    var aiaURL: String
    /// Where the RSA leaves' keys come from.
    var keys: LabKeyCache

    static let day: Int64 = 86_400

    /// The key-cache roles of the shared RSA keys: the lessons they were first cached for (kept).
    static let rsa2048Role = "rsa-2048"
    static let staticRSARole = "no-forward-secrecy"

    /// Builds the shared CAs, keys and leaves (all of them: a run takes well under a second, and
    /// pins and anchors then never depend on the selection).
    /// - Parameters:
    ///   - now: the reference time for validity periods.
    ///   - serverIPs: the iPAddress SAN entries of every leaf (127.0.0.1, plus a classroom address).
    ///   - aiaURL: the caIssuers URL written into missing-intermediate-aia's leaf.
    ///   - keys: where the RSA leaves' keys come from, each under its scenario's name as its role.
    static func build(
        now: Timestamp, serverIPs: [String], aiaURL: String, keys: LabKeyCache = .shared
    ) throws(BuilderError) -> LabPKI {
        let caStart = now.adding(seconds: -30 * day)
        let caEnd = now.adding(seconds: 3650 * day)

        func root(_ cn: String, keyUsage: Bool = true) throws(BuilderError) -> LabIssued {
            let key = try KeyPair.generate(.ecP256)
            var b = CertificateBuilder(
                subject: NameBuilder(commonName: cn), publicKey: key, notBefore: caStart,
                notAfter: caEnd)
            b.basicConstraints = .init(isCA: true)
            if keyUsage { b.keyUsage = .init([.keyCertSign, .cRLSign]) }
            return LabIssued(certificate: try b.selfSign(key: key), key: key)
        }

        // A CA made by `openssl req -x509` with no extension file, as in that walkthrough: no
        // keyUsage (Apple checks an issuer's keyUsage only when present).
        let library = try root("Library Test CA", keyUsage: false)
        let rogue = try root("Rogue CA", keyUsage: false)
        let otherRoot = try root("Untrusted Root CA")
        let clientCA = try root("Library Test Client CA")

        // The learner's identity for mtls-required: EKU clientAuth, issued by the client CA.
        let clientKey = try KeyPair.generate(.ecP256)
        var client = CertificateBuilder(
            subject: NameBuilder(commonName: "Library Test Learner"), publicKey: clientKey,
            notBefore: now.adding(seconds: -day), notAfter: now.adding(seconds: 397 * day))
        client.keyUsage = .init([.digitalSignature])
        client.extendedKeyUsage = .init([.clientAuth])
        let clientIdentity = LabIssued(
            certificate: try client.sign(issuerKey: clientCA.key, issuer: clientCA.certificate), key: clientKey)

        let placeholder = LabIssued(certificate: library.certificate, key: library.key)
        var pki = LabPKI(
            libraryCA: library, rogueCA: rogue, untrustedRoot: otherRoot, clientCA: clientCA,
            clientIdentity: clientIdentity, libraryIntermediate: placeholder,
            good: placeholder, rsa2048: placeholder, selfSigned: placeholder, staticRSAKey: library.key,
            anchors: [:], pins: [:], now: now, serverIPs: serverIPs, aiaURL: aiaURL, keys: keys)
        pki.libraryIntermediate = try pki.intermediate("Library Test Intermediate CA", issuer: library)
        pki.good = try pki.leaf(issuer: library)
        pki.rsa2048 = try pki.leaf(issuer: library, kind: .rsa(bits: 2048), role: rsa2048Role)
        pki.staticRSAKey = try keys.key(.rsa(bits: 2048), role: staticRSARole)
        let selfKey = try KeyPair.generate(.ecP256)
        pki.selfSigned = LabIssued(certificate: try pki.leafBuilder(selfKey).selfSign(key: selfKey), key: selfKey)

        // key-rotated: the lesson's pin was taken from the old leaf; the server now has a new key.
        let oldKey = try KeyPair.generate(.ecP256)
        // pin-rotated: the app's NSPinnedDomains leaf identity was taken from a key the server
        // no longer uses.
        let pinRotatedOldKey = try KeyPair.generate(.ecP256)
        pki.anchors = [
            .libraryTestCA: library.certificate, .rogueCA: rogue.certificate,
            .untrustedRoot: otherRoot.certificate, .selfSigned: pki.selfSigned.certificate,
        ]
        pki.pins = [
            .goodLeaf: pki.good.certificate.spkiSHA256, .rsa2048Leaf: pki.rsa2048.certificate.spkiSHA256,
            .rotatedAwayLeaf: Digest.sha256(oldKey.spkiDER), .libraryTestCA: library.certificate.spkiSHA256,
            .pinRotatedOldLeaf: Digest.sha256(pinRotatedOldKey.spkiDER),
        ]
        return pki
    }

    /// When the CAs' validity starts.
    var caStart: Timestamp { now.adding(seconds: -30 * LabPKI.day) }

    /// The SAN entries of every leaf: the lab's addresses.
    func sans() throws(BuilderError) -> [GeneralName] {
        try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
    }

    /// A CA below `issuer`, valid five years.
    func intermediate(
        _ cn: String, issuer: LabIssued, pathLength: Int? = nil,
        configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
    ) throws(BuilderError) -> LabIssued {
        let key = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: cn), publicKey: key, notBefore: caStart,
            notAfter: now.adding(seconds: 1825 * LabPKI.day))
        b.basicConstraints = .init(isCA: true, pathLength: pathLength)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        try configure(&b)
        return LabIssued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
    }

    /// The walkthrough's leaf for `key`, not yet signed.
    func leafBuilder(_ key: KeyPair) throws(BuilderError) -> CertificateBuilder {
        let start = now.adding(seconds: -LabPKI.day)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: serverIPs[0]), publicKey: key,
            notBefore: start, notAfter: start.adding(seconds: 397 * LabPKI.day))
        b.keyUsage = .init([.digitalSignature])
        b.extendedKeyUsage = .init([.serverAuth])
        b.subjectAltNames = .init(try sans())
        return b
    }

    /// The walkthrough's leaf, changed by `configure`, signed by `issuer`.
    /// - Parameters:
    ///   - role: the key-cache role of an RSA key (an RSA key costs tens to hundreds of
    ///     milliseconds, an EC key microseconds: only the RSA ones are worth keeping between starts).
    func leaf(
        issuer: LabIssued, kind: KeyKind = .ecP256, role: String = "",
        configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
    ) throws(BuilderError) -> LabIssued {
        let key: KeyPair
        if case .rsa = kind { key = try keys.key(kind, role: role) } else { key = try KeyPair.generate(kind) }
        return try leaf(issuer: issuer, key: key, configure: configure)
    }

    /// The walkthrough's leaf on `key`, changed by `configure`, signed by `issuer`.
    func leaf(
        issuer: LabIssued, key: KeyPair, configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
    ) throws(BuilderError) -> LabIssued {
        var b = try leafBuilder(key)
        try configure(&b)
        return LabIssued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
    }

    /// A leaf of Library Test CA for `host`, a DNS name (the ATS lessons' servers: ATS exempts
    /// loopback addresses): the name comes first in the SAN, the addresses stay for clients
    /// that dial them directly.
    func namedLeaf(host: String, key: KeyPair) throws(BuilderError) -> LabIssued {
        let sans = try sans()
        return try leaf(issuer: libraryCA, key: key) { b in
            b.subject = NameBuilder(commonName: host)
            b.subjectAltNames = .init([.dnsName(host)] + sans)
            // RSA key exchange encrypts the premaster secret to the leaf's key (RFC 5246 7.4.7.1).
            if case .rsa = key.kind { b.keyUsage = .init([.digitalSignature, .keyEncipherment]) }
        }
    }

    /// A CA below `intermediate`, used where a path needs two CAs under the root.
    func issuingCA(
        intermediate: LabIssued, name: String = "Library Test Issuing CA"
    ) throws(BuilderError) -> LabIssued {
        let key = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: name), publicKey: key, notBefore: caStart,
            notAfter: now.adding(seconds: 1825 * LabPKI.day))
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        return LabIssued(
            certificate: try b.sign(issuerKey: intermediate.key, issuer: intermediate.certificate), key: key)
    }
}

extension LabIssued {
    /// A self-signed P-256 root CA named `name`: the shape of each lesson group's own root
    /// (inspection, Certificate Transparency, distrust, early expiry).
    static func root(_ name: String, notBefore: Timestamp, notAfter: Timestamp) throws(BuilderError) -> LabIssued {
        let key = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: name), publicKey: key, notBefore: notBefore, notAfter: notAfter)
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        return LabIssued(certificate: try b.selfSign(key: key), key: key)
    }

    /// A serverAuth leaf of this CA for `host`, then `ips`, sent alone, on `key` (a new P-256 key
    /// unless given); with SCTs embedded from `logs`, dated at its notBefore, when any are given.
    func serverLeaf(
        host: String, ips: [GeneralName], notBefore: Timestamp, notAfter: Timestamp, logs: [CTTestLog] = [],
        key: KeyPair? = nil
    ) throws(BuilderError) -> LabServedChain {
        let leafKey: KeyPair
        if let key { leafKey = key } else { leafKey = try KeyPair.generate(.ecP256) }
        var leaf = CertificateBuilder(
            subject: NameBuilder(commonName: host), publicKey: leafKey, notBefore: notBefore, notAfter: notAfter)
        leaf.basicConstraints = .init(isCA: false, critical: false)
        leaf.keyUsage = .init([.digitalSignature])
        leaf.extendedKeyUsage = .init([.serverAuth])
        leaf.subjectAltNames = .init([.dnsName(host)] + ips)
        let certificate =
            logs.isEmpty
            ? try leaf.sign(issuerKey: self.key, issuer: self.certificate)
            : try leaf.signWithEmbeddedSCTs(
                logs.map { EmbeddedSCTRequest($0, at: notBefore) }, issuerKey: self.key, issuer: self.certificate)
        return LabServedChain(chain: [certificate], key: leafKey)
    }
}
