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
}

/// Every certificate and key of one lab run, built in process: every certificate and EC key
/// fresh, the RSA keys from the lab's key cache (`LabKeyCache`, D148).
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
    /// The intermediate the AIA server hands out (missing-intermediate-aia's issuer).
    var aiaIntermediate: Certificate
    /// That intermediate with its key (the pool's node without its intermediate is issued by it too).
    var libraryIntermediate: LabIssued
    var served: [String: LabServedChain]
    var anchors: [LabAnchor: Certificate]
    /// SPKI SHA-256 of each lesson key.
    var pins: [LabPin: [UInt8]]

    static let day: Int64 = 86_400

    /// Builds the PKI for `scenarios` (all of them are built: a run takes well under a second,
    /// and pins and anchors then never depend on the selection).
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
        func intermediate(
            _ cn: String, issuer: LabIssued, pathLength: Int? = nil,
            configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
        ) throws(BuilderError)
            -> LabIssued
        {
            let key = try KeyPair.generate(.ecP256)
            var b = CertificateBuilder(
                subject: NameBuilder(commonName: cn), publicKey: key, notBefore: caStart,
                notAfter: now.adding(seconds: 1825 * day))
            b.basicConstraints = .init(isCA: true, pathLength: pathLength)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            try configure(&b)
            return LabIssued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
        }
        let sans = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        func leafBuilder(_ key: KeyPair, notBefore: Timestamp? = nil, days: Int64 = 397) -> CertificateBuilder {
            let start = notBefore ?? now.adding(seconds: -day)
            var b = CertificateBuilder(
                subject: NameBuilder(commonName: serverIPs[0]), publicKey: key,
                notBefore: start, notAfter: start.adding(seconds: days * day))
            b.keyUsage = .init([.digitalSignature])
            b.extendedKeyUsage = .init([.serverAuth])
            b.subjectAltNames = .init(sans)
            return b
        }
        // An RSA key costs a generation of tens to hundreds of milliseconds, an EC key
        // microseconds: only the RSA ones are worth keeping between starts.
        func leafKey(_ kind: KeyKind, role: String) throws(BuilderError) -> KeyPair {
            if case .rsa = kind { return try keys.key(kind, role: role) }
            return try KeyPair.generate(kind)
        }
        func leaf(
            issuer: LabIssued, kind: KeyKind = .ecP256, role: String = "",
            configure: (inout CertificateBuilder) throws(BuilderError) -> Void = { _ in }
        ) throws(BuilderError)
            -> LabIssued
        {
            let key = try leafKey(kind, role: role)
            var b = leafBuilder(key)
            try configure(&b)
            return LabIssued(certificate: try b.sign(issuerKey: issuer.key, issuer: issuer.certificate), key: key)
        }

        // A CA made by `openssl req -x509` with no extension file, as in that walkthrough: no
        // keyUsage (Apple checks an issuer's keyUsage only when present).
        let library = try root("Library Test CA", keyUsage: false)
        let rogue = try root("Rogue CA", keyUsage: false)
        let otherRoot = try root("Untrusted Root CA")
        let clientCA = try root("Library Test Client CA")

        var served: [String: LabServedChain] = [:]
        func serve(_ name: String, _ leaf: LabIssued, _ rest: [Certificate] = []) {
            served[name] = LabServedChain(chain: [leaf.certificate] + rest, key: leaf.key)
        }

        // good, wrong-host, tls12-only, mtls-required and smtp-starttls present the same
        // certificate: what differs is the host, the protocol or the handshake around it.
        let good = try leaf(issuer: library)
        for name in ["good", "wrong-host", "tls12-only", "mtls-required", "smtp-starttls"] { serve(name, good) }

        serve("rogue-ca", try leaf(issuer: rogue))
        serve(
            "expired",
            try leaf(issuer: library) { b in
                b.notBefore = now.adding(seconds: -400 * day)
                b.notAfter = now.adding(seconds: -30 * day)
            })
        serve(
            "not-yet-valid",
            try leaf(issuer: library) { b in
                b.notBefore = now.adding(seconds: 30 * day)
                b.notAfter = now.adding(seconds: 395 * day)
            })
        let selfKey = try KeyPair.generate(.ecP256)
        let selfSigned = LabIssued(certificate: try leafBuilder(selfKey).selfSign(key: selfKey), key: selfKey)
        serve("self-signed", selfSigned)

        let libraryIntermediate = try intermediate("Library Test Intermediate CA", issuer: library)
        serve("missing-intermediate", try leaf(issuer: libraryIntermediate))
        serve("missing-intermediate-aia", try leaf(issuer: libraryIntermediate) { $0.caIssuersURLs = [aiaURL] })

        // wrong-order: root -> intermediate -> issuing CA -> leaf, sent as leaf, intermediate,
        // issuing CA (the issuing CA should come first).
        let issuing = try LabPKI.issuingCA(intermediate: libraryIntermediate, now: now, caStart: caStart)
        serve("wrong-order", try leaf(issuer: issuing), [libraryIntermediate.certificate, issuing.certificate])

        let otherIntermediate = try LabPKI.issuingCA(
            intermediate: otherRoot, now: now, caStart: caStart, name: "Untrusted Intermediate CA")
        serve(
            "untrusted-root", try leaf(issuer: otherIntermediate),
            [otherIntermediate.certificate, otherRoot.certificate])

        serve("cn-only", try leaf(issuer: library) { $0.subjectAltNames = nil })
        serve("client-auth-eku", try leaf(issuer: library) { $0.extendedKeyUsage = .init([.clientAuth]) })
        serve("rsa-1024", try leaf(issuer: library, kind: .rsa(bits: 1024), role: "rsa-1024"))
        serve("sha1-signature", try leaf(issuer: library) { $0.signatureAlgorithm = .ecdsaWithSHA1 })
        serve(
            "long-validity",
            try leaf(issuer: library) { b in b.notAfter = b.notBefore.adding(seconds: 900 * day) })

        let limited = try intermediate("Library Test Intermediate CA (pathLen 0)", issuer: library, pathLength: 0)
        let belowLimit = try LabPKI.issuingCA(intermediate: limited, now: now, caStart: caStart)
        serve("path-length", try leaf(issuer: belowLimit), [belowLimit.certificate, limited.certificate])

        let constrained = try intermediate("Library Test Constrained CA", issuer: library) { b throws(BuilderError) in
            b.nameConstraints = .init(permitted: [.dnsName("example.com"), try GeneralName.ipSubnet("10.0.0.0/8")])
        }
        serve("name-constraints", try leaf(issuer: constrained), [constrained.certificate])

        let rsa2048 = try leaf(issuer: library, kind: .rsa(bits: 2048), role: "rsa-2048")
        serve("rsa-2048", rsa2048)

        // key-rotated: the lesson's pin was taken from the old leaf; the server now has a new key.
        let oldKey = try KeyPair.generate(.ecP256)
        serve("key-rotated", try leaf(issuer: library))

        // revoked-ocsp: the CA revoked this leaf a day ago, and the server staples the CA's own
        // OCSP response saying so, current for a week.
        let revoked = try leaf(issuer: library)
        serve("revoked-ocsp", revoked)
        served["revoked-ocsp"]?.ocspResponse = try OCSPResponseBuilder(
            status: .revoked(now.adding(seconds: -day)), thisUpdate: now.adding(seconds: -3600),
            nextUpdate: now.adding(seconds: 7 * day)
        ).sign(certificate: revoked.certificate, issuer: library.certificate, key: library.key)

        // The ATS lessons' servers are named by DNS (ATS exempts loopback addresses): the name
        // comes first in the SAN, the addresses stay for clients that dial them directly.
        func namedLeaf(_ scenario: String, kind: KeyKind = .ecP256) throws(BuilderError) -> LabIssued {
            let host = LabScenario.named(scenario)?.host ?? scenario
            return try leaf(issuer: library, kind: kind, role: scenario) { b in
                b.subject = NameBuilder(commonName: host)
                b.subjectAltNames = .init([.dnsName(host)] + sans)
                // RSA key exchange encrypts the premaster secret to the leaf's key (RFC 5246 7.4.7.1).
                if case .rsa = kind { b.keyUsage = .init([.digitalSignature, .keyEncipherment]) }
            }
        }
        serve("tls11-only", try namedLeaf("tls11-only"))
        serve("no-forward-secrecy", try namedLeaf("no-forward-secrecy", kind: .rsa(bits: 2048)))
        // pin-rotated: the app's NSPinnedDomains leaf identity was taken from a key the server
        // no longer uses.
        let pinRotatedOldKey = try KeyPair.generate(.ecP256)
        serve("pin-rotated", try namedLeaf("pin-rotated"))

        // The learner's identity for mtls-required: EKU clientAuth, issued by the client CA.
        let clientKey = try KeyPair.generate(.ecP256)
        var client = CertificateBuilder(
            subject: NameBuilder(commonName: "Library Test Learner"), publicKey: clientKey,
            notBefore: now.adding(seconds: -day), notAfter: now.adding(seconds: 397 * day))
        client.keyUsage = .init([.digitalSignature])
        client.extendedKeyUsage = .init([.clientAuth])
        let clientIdentity = LabIssued(
            certificate: try client.sign(issuerKey: clientCA.key, issuer: clientCA.certificate), key: clientKey)

        return LabPKI(
            libraryCA: library, rogueCA: rogue, untrustedRoot: otherRoot, clientCA: clientCA,
            clientIdentity: clientIdentity, aiaIntermediate: libraryIntermediate.certificate,
            libraryIntermediate: libraryIntermediate, served: served,
            anchors: [
                .libraryTestCA: library.certificate, .rogueCA: rogue.certificate,
                .untrustedRoot: otherRoot.certificate, .selfSigned: selfSigned.certificate,
            ],
            pins: [
                .goodLeaf: good.certificate.spkiSHA256, .rsa2048Leaf: rsa2048.certificate.spkiSHA256,
                .rotatedAwayLeaf: Digest.sha256(oldKey.spkiDER), .libraryTestCA: library.certificate.spkiSHA256,
                .pinRotatedOldLeaf: Digest.sha256(pinRotatedOldKey.spkiDER),
            ])
    }

    /// A CA below `intermediate`, used where a path needs two CAs under the root.
    static func issuingCA(
        intermediate: LabIssued, now: Timestamp, caStart: Timestamp,
        name: String = "Library Test Issuing CA"
    ) throws(BuilderError) -> LabIssued {
        let key = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: name), publicKey: key, notBefore: caStart,
            notAfter: now.adding(seconds: 1825 * day))
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        return LabIssued(
            certificate: try b.sign(issuerKey: intermediate.key, issuer: intermediate.certificate), key: key)
    }
}
