import SuiteFixtures

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Certificate sets built to make a verifier work without bound (issue: bounded work). Each takes
/// its sizes as parameters: the unit tests build small ones and lower the limits, and
/// scripts/slow-shapes.sh asks for the full-size ones (BudgetTests.testWritesFullSizeShapes).
enum PathologicalShapes {
    /// A leaf with many SANs under `width` x `width` cross-signed CAs (every path combination
    /// verifies), the upper CAs carrying many permitted dNSName subtrees, and no anchor, so every
    /// one of the `width`² paths fails and is checked in full.
    /// Only the first `constrained` upper CAs (all of them by default) carry the subtrees.
    static func nameConstraintMesh(
        sans: Int, subtrees: Int, width: Int, constrained: Int? = nil, leafKey: KeyPair? = nil
    ) throws -> [Certificate] {
        let upperKey = try KeyPair.generate(.ecP256)
        let lowerKey = try KeyPair.generate(.ecP256)
        let leafKey = try leafKey ?? KeyPair.generate(.ecP256)
        let outsideKey = try KeyPair.generate(.ecP256)
        var uppers: [Certificate] = []
        for i in 0..<width {
            var b = CertificateBuilder(
                subject: TestPKI.name("Mesh Upper CA"), publicKey: upperKey, notBefore: TestPKI.now - .days(100 + i),
                notAfter: TestPKI.now + .days(1000))
            b.basicConstraints = .init(isCA: true)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            if i < constrained ?? width {
                b.nameConstraints = .init(permitted: (0..<subtrees).map { .dnsName("host\($0).example") })
            }
            uppers.append(
                try b.sign(
                    issuerKey: outsideKey, issuerName: TestPKI.name("Mesh Outside Root"), issuerKeyIdentifier: nil))
        }
        var lowers: [Certificate] = []
        for i in 0..<width {
            var b = CertificateBuilder(
                subject: TestPKI.name("Mesh Lower CA"), publicKey: lowerKey, notBefore: TestPKI.now - .days(100 + i),
                notAfter: TestPKI.now + .days(1000))
            b.basicConstraints = .init(isCA: true)
            b.keyUsage = .init([.keyCertSign, .cRLSign])
            lowers.append(try b.sign(issuerKey: upperKey, issuer: uppers[0]))
        }
        var b = TestPKI.leafBuilder(
            "host0.example", key: leafKey, notBefore: TestPKI.now - .days(30), lifetime: .days(300),
            configure: { _ in })
        // The last SANs match the last subtrees: every name is compared with most subtrees.
        b.subjectAltNames = .init((0..<sans).map { .dnsName("host\(subtrees - 1 - $0 % subtrees).example") })
        let leaf = try b.sign(issuerKey: lowerKey, issuer: lowers[0])
        return [leaf] + lowers + uppers
    }

    /// A root with `names` permitted dNSName subtrees and a leaf with `names` SANs, each inside
    /// one of them: one anchored path whose only cost is comparing names (the shape of Apple's
    /// NameConstraintsTests vector with 32,767 of each).
    static func nameConstraintVector(names: Int) throws -> (chain: [Certificate], anchor: Certificate) {
        let root = try TestPKI.root("Vector Root") { b in
            b.nameConstraints = .init(permitted: (0..<names).map { .dnsName("host\($0).example") })
        }
        let leaf = try TestPKI.leaf("host0.example", issuer: root) { b in
            b.subjectAltNames = .init((0..<names).map { .dnsName("host\(names - 1 - $0).example") })
        }
        return ([leaf.certificate], root.certificate)
    }

    /// The RSA SubjectPublicKeyInfo of a key nobody holds: a `modulusBits` modulus and a public
    /// exponent of `exponentBits` bits, both odd, random below the top bit.
    static func bogusRSAKey(modulusBits: Int, exponentBits: Int) -> [UInt8] {
        func number(bits: Int) -> [UInt8] {
            var bytes = (0..<(bits + 7) / 8).map { _ in UInt8.random(in: 0...255) }
            let top = (bits - 1) % 8
            bytes[0] = bytes[0] & UInt8((1 << (top + 1)) - 1) | UInt8(1 << top)
            bytes[bytes.count - 1] |= 1
            return bytes
        }
        let rsaPublicKey = DERWriter.encode { w in
            w.sequence { s in
                s.integer(magnitude: number(bits: modulusBits))
                s.integer(magnitude: number(bits: exponentBits))
            }
        }
        return DERWriter.encode { w in
            w.sequence { s in
                s.sequence { a in
                    a.oid(.rsaEncryption)
                    a.null()
                }
                s.bitString(rsaPublicKey)
            }
        }
    }

    /// `spki` (an RSA SubjectPublicKeyInfo) with its exponent INTEGER's length written in three
    /// octets, a longer form than DER allows (`83 00 01 80` for a 3,070-bit exponent, `83 00 00 03`
    /// for 65537): BER that OpenSSL reads and a strict DER reader refuses.
    static func withNonMinimalExponentLength(_ spki: [UInt8]) throws -> [UInt8] {
        var r = DERReader(spki)
        var inner = r.reader(inside: try r.read(DERTag.sequence, "SubjectPublicKeyInfo"))
        let algorithm = try inner.read(DERTag.sequence, "AlgorithmIdentifier")
        let (key, _) = try inner.bitString(try inner.read(DERTag.bitString, "subjectPublicKey"))
        var k = DERReader(key)
        var fields = k.reader(inside: try k.read(DERTag.sequence, "RSAPublicKey"))
        let modulus = try fields.read(DERTag.integer, "modulus")
        let exponent = Array(fields.content(try fields.read(DERTag.integer, "publicExponent")))
        let count = exponent.count
        let rsa = DERWriter.encode { w in
            w.sequence { s in
                s.raw(Array(key[modulus.fullRange]))
                s.raw([DERTag.integer, 0x83, 0x00, UInt8(count >> 8), UInt8(count & 0xFF)] + exponent)
            }
        }
        return DERWriter.encode { w in
            w.sequence { s in
                s.raw(Array(spki[algorithm.fullRange]))
                s.bitString(rsa)
            }
        }
    }

    /// `certificate` with its signature replaced by `length` random octets.
    static func withSignature(of certificate: Certificate, length: Int) throws -> Certificate {
        let der = DERWriter.encode { w in
            w.sequence { s in
                s.raw(Array(certificate.tbsBytes))
                s.raw(certificate.signatureAlgorithm.der)
                // Below any modulus of that length (the top bit is set in every bogus one), so
                // OpenSSL cannot refuse it as out of range before computing.
                s.bitString([0x01] + (1..<length).map { _ in UInt8.random(in: 0...255) })
            }
        }
        return try Certificate(der: der)
    }

    /// A CA certificate named `name` about `spki`, signed by a throwaway key.
    static func candidate(named name: NameBuilder, spki: [UInt8], signer: KeyPair) throws -> Certificate {
        var b = CertificateBuilder(
            subject: name, subjectPublicKeyInfo: spki, notBefore: TestPKI.now - .days(10),
            notAfter: TestPKI.now + .days(1000))
        b.basicConstraints = .init(isCA: true)
        b.subjectKeyIdentifier = .omitted
        return try b.sign(issuerKey: signer, issuerName: TestPKI.name("Flood Elsewhere"), issuerKeyIdentifier: nil)
    }

    /// A leaf under `valid` cross-signed intermediates (same name and key, each RSA-signed), and
    /// `bogus` candidates for the intermediates' issuer, all of the same name, each with an RSA
    /// key of `modulusBits` bits and an `exponentBits`-bit exponent: every intermediate sends path
    /// building through every bogus candidate, valid x bogus RSA checks without a bound.
    static func signatureFlood(
        valid: Int, bogus: Int, modulusBits: Int = 3072, exponentBits: Int = 3070, leafKey: KeyPair? = nil,
        nonMinimalExponentLength: Bool = false
    ) throws -> [Certificate] {
        let rsa = try TestPKI.sharedKey(.rsa(bits: 2048))
        let intermediateKey = try KeyPair.generate(.ecP256)
        let signer = try KeyPair.generate(.ecP256)
        let rootName = TestPKI.name("Flood Root")
        var intermediates: [Certificate] = []
        for i in 0..<valid {
            var b = CertificateBuilder(
                subject: TestPKI.name("Flood Intermediate"), publicKey: intermediateKey,
                notBefore: TestPKI.now - .days(100 + i), notAfter: TestPKI.now + .days(1000))
            b.basicConstraints = .init(isCA: true)
            b.authorityKeyIdentifier = .omitted
            let signed = try b.sign(issuerKey: rsa, issuerName: rootName, issuerKeyIdentifier: nil)
            // A signature as long as the bogus moduli, so that OpenSSL does the whole modular
            // exponentiation before finding it wrong (nobody needs to hold the signing key).
            intermediates.append(try withSignature(of: signed, length: modulusBits / 8))
        }
        var candidates: [Certificate] = []
        for _ in 0..<bogus {
            var spki = bogusRSAKey(modulusBits: modulusBits, exponentBits: exponentBits)
            if nonMinimalExponentLength { spki = try withNonMinimalExponentLength(spki) }
            candidates.append(try candidate(named: rootName, spki: spki, signer: signer))
        }
        let leaf = try TestPKI.leaf(
            "host0.example", issuer: Issued(certificate: intermediates[0], key: intermediateKey), key: leafKey)
        return [leaf.certificate] + intermediates + candidates
    }
}
