import COpenSSL
import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustX509

/// PKCS#12 key-derivation counts are read with the DER reader and bounded before OpenSSL parses
/// the file (D46): a 1 KB file cannot ask for minutes of work.
final class PKCS12IterationTests: XCTestCase {
    private var dir: TemporaryDirectory!
    private var p12: String!

    override func setUpWithError() throws {
        let chain = try TestPKI.chain()
        dir = try TemporaryDirectory()
        let key = try dir.write("leaf.key", chain.leaf.key.privateKeyPEM())
        let leaf = try dir.writePEM("leaf.pem", [chain.leaf.certificate])
        let path = dir.path + "/leaf.p12"
        _ = try Shell.output("openssl pkcs12 -export -in \(leaf) -inkey \(key) -passout pass:x -out \(path)")
        p12 = path
    }

    /// The `Iteration N` values `openssl pkcs12 -info` prints for the file.
    func opensslIterations(_ path: String) throws -> [Int] {
        let info = try Shell.output("openssl pkcs12 -in \(path) -info -noout -passin pass:x 2>&1")
        return info.split(separator: "\n").compactMap { line in
            guard let range = line.range(of: "Iteration ") else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
    }

    func testEveryCountOpenSSLReportsIsRead() throws {
        let counts = try opensslIterations(p12)
        // The MAC, the encrypted certificate bag and the shrouded key bag.
        XCTAssertEqual(counts.count, 3, "\(counts)")
        let der = try Array(Data(contentsOf: URL(fileURLWithPath: p12)))
        let inspection = try PKCS12Iterations.inspect(der).get()
        XCTAssertEqual(inspection, .init(total: counts.reduce(0, +), hasMAC: true))
        XCTAssertNil(PKCS12Iterations.refusal(der))
    }

    func testAHugeMACCountIsRefusedBeforeOpenSSLTriesThePassword() throws {
        let der = try Self.replacingMACIterations(
            of: Array(Data(contentsOf: URL(fileURLWithPath: p12))), with: 0x7FFF_FFFF)
        let path = try dir.write("huge-mac.p12", der)
        // openssl reads the count we wrote; it would run 2^31 - 1 rounds on it.
        XCTAssertTrue(
            try Shell.run("openssl pkcs12 -in \(path) -info -noout -nomacver -passin pass:x 2>&1").text.contains(
                "Iteration 2147483647"))
        XCTAssertThrowsError(try CertificateLoader.load(path: path, password: "wrong")) { error in
            guard case LoadError.malformed(let e) = error else { return XCTFail("\(error)") }
            XCTAssertTrue(e.reason.contains("rounds of password-based key derivation, over the bound"), e.reason)
        }
    }

    func testEncryptionCountsWithoutAMACAreBoundedToo() throws {
        // A PFX with no MAC whose one encrypted part asks for 2^31 - 1 rounds of PBKDF2: OpenSSL
        // would derive the key whatever the password.
        let pbes2 = DERWriter.encode { w in
            w.sequence { a in
                a.oid(PKCS12Iterations.pbes2)
                a.sequence { p in
                    p.sequence { k in
                        k.oid(PKCS12Iterations.pbkdf2)
                        k.sequence { q in
                            q.octetString([1, 2, 3, 4, 5, 6, 7, 8])
                            q.integer(0x7FFF_FFFF)
                        }
                    }
                    p.sequence { e in e.oid(OID(dotted: "2.16.840.1.101.3.4.1.42")!) }
                }
            }
        }
        let encryptedData = DERWriter.encode { w in
            w.sequence { ci in
                ci.oid(PKCS12Iterations.encryptedData)
                ci.contextSpecific(0) { c in
                    c.sequence { d in
                        d.integer(0)
                        d.sequence { e in
                            e.oid(PKCS12Iterations.data)
                            e.raw(pbes2)
                            e.element(tag: 0x80, content: [UInt8](repeating: 0, count: 32))
                        }
                    }
                }
            }
        }
        let pfx = DERWriter.encode { w in
            w.sequence { s in
                s.integer(3)
                s.sequence { a in
                    a.oid(PKCS12Iterations.data)
                    a.contextSpecific(0) { c in
                        c.octetString(DERWriter.encode { $0.sequence { $0.raw(encryptedData) } })
                    }
                }
            }
        }
        XCTAssertEqual(
            try PKCS12Iterations.inspect(pfx).get(), .init(total: 0x7FFF_FFFF, hasMAC: false))
        XCTAssertNotNil(PKCS12Iterations.refusal(pfx))
        XCTAssertThrowsError(try CertificateLoader.decode(pfx, password: "x")) { error in
            XCTAssertTrue("\(error)".contains("over the bound"), "\(error)")
        }
    }

    func testABERAuthSafeIsReadAndItsHugeKeyCountRefusedThoughTheMACIsRight() throws {
        // The authSafe's OCTET STRING constructed, with indefinite lengths, in 16-byte segments;
        // the MAC right for the password; the shrouded key asking for 2^31 - 1 rounds of PBKDF2,
        // which OpenSSL would run once the MAC verified.
        let hostile = Self.berPKCS12(password: "hostile", keyIterations: 0x7FFF_FFFF)
        XCTAssertEqual(try PKCS12Iterations.inspect(hostile).get(), .init(total: 2048 + 0x7FFF_FFFF, hasMAC: true))
        XCTAssertThrowsError(try CertificateLoader.decode(hostile, password: "hostile")) { error in
            XCTAssertTrue("\(error)".contains("2147485695 rounds of password-based key derivation"), "\(error)")
        }
        // The same file with 2,048 rounds is within the bound and reaches OpenSSL, whose MAC check
        // accepts the password (its key bag is random bytes, so decryption fails after it).
        let fair = Self.berPKCS12(password: "hostile", keyIterations: 2048)
        XCTAssertNil(PKCS12Iterations.refusal(fair))
        XCTAssertThrowsError(try CertificateLoader.decode(fair, password: "hostile")) { error in
            XCTAssertTrue("\(error)".contains("the password is right"), "\(error)")
        }
        XCTAssertThrowsError(try CertificateLoader.decode(fair, password: "wrong")) { error in
            XCTAssertTrue("\(error)".contains("wrong password"), "\(error)")
        }
    }

    func testBERThatCannotBeReadIsRefusedWhateverTheMAC() throws {
        var truncated = Self.berPKCS12(password: "hostile", keyIterations: 2048)
        // The PFX's definite length still covers the file; the authSafe's end-of-contents go.
        let eoc = try XCTUnwrap(
            (0..<truncated.count - 3).first { truncated[$0..<$0 + 4] == [0, 0, 0, 0] })
        truncated[eoc + 1] = 0x05
        let refusal = try XCTUnwrap(PKCS12Iterations.refusal(truncated))
        XCTAssertTrue(refusal.contains("cannot all be read"), refusal)
        // Segments are flattened into the one OCTET STRING DER would have.
        XCTAssertEqual(
            try BERNormalizer.normalized([0x24, 0x80, 0x04, 0x01, 0xAA, 0x04, 0x02, 0xBB, 0xCC, 0x00, 0x00][...]),
            [0x04, 0x03, 0xAA, 0xBB, 0xCC])
        var deep: [UInt8] = Array(repeating: 0x30, count: 2 * (BERNormalizer.maximumDepth + 2))
        for k in stride(from: 1, to: deep.count, by: 2) { deep[k] = 0x80 }
        // Well formed (every level closed), but nested past the bound.
        deep += [UInt8](repeating: 0, count: deep.count)
        XCTAssertThrowsError(try BERNormalizer.normalized(deep[...])) { error in
            XCTAssertTrue("\(error)".contains("nesting deeper"), "\(error)")
        }
    }

    func testAHugeKeyCountInsideAnEncryptedPartIsReadOnceTheMACVerifiesAndRefused() throws {
        // A shrouded key bag asking for 2^31 - 1 rounds, inside a part encrypted (by OpenSSL)
        // with 2,048 rounds of PBKDF2, and a MAC of 2,048 rounds: the inner count can be seen
        // only by decrypting the part with the password.
        let bag = DERWriter.encode { w in
            w.sequence { b in
                b.oid(PKCS12Iterations.shroudedKeyBag)
                b.contextSpecific(0) { v in
                    v.sequence { k in
                        k.raw(Self.pbes2(iterations: 0x7FFF_FFFF))
                        k.octetString([UInt8](repeating: 5, count: 64))
                    }
                }
            }
        }
        let der = try XCTUnwrap(Self.encryptedPartPKCS12(bag: bag, password: "hostile"))
        // Outside the encrypted part: the MAC's 2,048 and the part's 2,048.
        XCTAssertEqual(try PKCS12Iterations.inspect(der).get(), .init(total: 4096, hasMAC: true))
        XCTAssertThrowsError(try CertificateLoader.decode(der, password: "hostile")) { error in
            XCTAssertTrue("\(error)".contains("2147487743 rounds of password-based key derivation"), "\(error)")
        }
        // A wrong password stops at the MAC: nothing is decrypted.
        XCTAssertThrowsError(try CertificateLoader.decode(der, password: "wrong")) { error in
            XCTAssertTrue("\(error)".contains("wrong password"), "\(error)")
        }
    }

    /// PBES2 parameters: PBKDF2 with HMAC-SHA256 and `iterations` rounds, AES-256-CBC.
    static func pbes2(iterations: Int) -> [UInt8] {
        DERWriter.encode { w in
            w.sequence { a in
                a.oid(PKCS12Iterations.pbes2)
                a.sequence { p in
                    p.sequence { k in
                        k.oid(PKCS12Iterations.pbkdf2)
                        k.sequence { q in
                            q.octetString([1, 2, 3, 4, 5, 6, 7, 8])
                            q.integer(iterations)
                            q.sequence {
                                $0.oid(OID(dotted: "1.2.840.113549.2.9")!)
                                $0.null()
                            }
                        }
                    }
                    p.sequence { e in
                        e.oid(OID(dotted: "2.16.840.1.101.3.4.1.42")!)
                        e.octetString([UInt8](repeating: 7, count: 16))
                    }
                }
            }
        }
    }

    /// A PKCS#12 file, made by OpenSSL, whose one part holds `bag` (a SafeBag's DER) encrypted
    /// under `password` with PBES2 (AES-256-CBC, 2,048 rounds), with a MAC of 2,048 rounds.
    static func encryptedPartPKCS12(bag: [UInt8], password: String) -> [UInt8]? {
        let safeBag: OpaquePointer? = bag.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_PKCS12_SAFEBAG(nil, &p, buf.count)
        }
        guard let safeBag, let bags = OPENSSL_sk_new_null() else { return nil }
        _ = OPENSSL_sk_push(bags, UnsafeRawPointer(safeBag))
        guard let part = PKCS12_pack_p7encdata(NID_aes_256_cbc, password, -1, nil, 0, 2048, bags),
            let parts = OPENSSL_sk_new_null()
        else { return nil }
        _ = OPENSSL_sk_push(parts, UnsafeRawPointer(part))
        guard let p12 = PKCS12_add_safes(parts, 0) else { return nil }
        defer { PKCS12_free(p12) }
        guard PKCS12_set_mac(p12, password, -1, nil, 0, 2048, nil) == 1 else { return nil }
        let n = i2d_PKCS12(p12, nil)
        guard n > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(n))
        out.withUnsafeMutableBufferPointer { b in
            var p: UnsafeMutablePointer<UInt8>? = b.baseAddress
            _ = i2d_PKCS12(p12, &p)
        }
        return out
    }

    /// A PKCS#12 file as BER: its authSafe a constructed, indefinite-length OCTET STRING holding one
    /// shrouded key bag (PBES2 with PBKDF2 of `keyIterations` rounds over 64 random bytes), with a
    /// SHA-256 MAC of 2,048 rounds computed for `password` (RFC 7292 Appendix B).
    static func berPKCS12(password: String, keyIterations: Int) -> [UInt8] {
        let pbes2 = DERWriter.encode { w in
            w.sequence { a in
                a.oid(PKCS12Iterations.pbes2)
                a.sequence { p in
                    p.sequence { k in
                        k.oid(PKCS12Iterations.pbkdf2)
                        k.sequence { q in
                            q.octetString([1, 2, 3, 4, 5, 6, 7, 8])
                            q.integer(keyIterations)
                            q.sequence {
                                $0.oid(OID(dotted: "1.2.840.113549.2.9")!); $0.null()
                            }
                        }
                    }
                    p.sequence { e in
                        e.oid(OID(dotted: "2.16.840.1.101.3.4.1.42")!)
                        e.octetString([UInt8](repeating: 7, count: 16))
                    }
                }
            }
        }
        let authSafe = DERWriter.encode { w in
            w.sequence { list in
                list.sequence { info in
                    info.oid(PKCS12Iterations.data)
                    info.contextSpecific(0) { c in
                        c.octetString(
                            DERWriter.encode { w in
                                w.sequence { bags in
                                    bags.sequence { bag in
                                        bag.oid(PKCS12Iterations.shroudedKeyBag)
                                        bag.contextSpecific(0) { v in
                                            v.sequence { k in
                                                k.raw(pbes2)
                                                k.octetString((0..<64).map { UInt8($0 * 37 & 0xFF) })
                                            }
                                        }
                                    }
                                }
                            })
                    }
                }
            }
        }
        var segments: [UInt8] = []
        for start in stride(from: 0, to: authSafe.count, by: 16) {
            let piece = Array(authSafe[start..<min(start + 16, authSafe.count)])
            segments += [0x04, UInt8(piece.count)] + piece
        }
        let berContent: [UInt8] = [0xA0, 0x80, 0x24, 0x80] + segments + [0, 0, 0, 0]
        let salt: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
        let key = pkcs12MACKey(password: password, salt: salt, iterations: 2048)
        let mac = hmacSHA256(key: key, authSafe)
        let authInfo = DERWriter.encode { w in w.oid(PKCS12Iterations.data) } + berContent
        return DERWriter.encode { w in
            w.sequence { pfx in
                pfx.integer(3)
                pfx.element(tag: 0x30, content: authInfo)
                pfx.sequence { md in
                    md.sequence { d in
                        d.sequence {
                            $0.oid(OID(dotted: "2.16.840.1.101.3.4.2.1")!); $0.null()
                        }
                        d.octetString(mac)
                    }
                    md.octetString(salt)
                    md.integer(2048)
                }
            }
        }
    }

    /// RFC 7292 B.2 with SHA-256 (u = 32, v = 64), ID 3 (MAC key), 32 bytes: a single block.
    static func pkcs12MACKey(password: String, salt: [UInt8], iterations: Int) -> [UInt8] {
        func stretch(_ b: [UInt8]) -> [UInt8] {
            b.isEmpty ? [] : (0..<(64 * ((b.count + 63) / 64))).map { b[$0 % b.count] }
        }
        let bmp: [UInt8] =
            password.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u >> 8), UInt8(u & 0xFF)] } + [0, 0]
        var a = [UInt8](repeating: 3, count: 64) + stretch(salt) + stretch(bmp)
        for _ in 0..<iterations { a = Digest.sha256(a) }
        return a
    }

    static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        let padded = key + [UInt8](repeating: 0, count: 64 - key.count)
        let inner = Digest.sha256(padded.map { $0 ^ 0x36 } + message)
        return Digest.sha256(padded.map { $0 ^ 0x5C } + inner)
    }

    /// `der` with its MacData's iteration count replaced.
    static func replacingMACIterations(of der: [UInt8], with count: Int) throws -> [UInt8] {
        var r = DERReader(der)
        var p = r.reader(inside: try r.read(DERTag.sequence, "PFX"))
        let version = try p.read(DERTag.integer, "version")
        let authSafe = try p.read(DERTag.sequence, "authSafe")
        let macData = try p.read(DERTag.sequence, "macData")
        var m = p.reader(inside: macData)
        let mac = try m.read(DERTag.sequence, "mac")
        let salt = try m.read(DERTag.octetString, "salt")
        return DERWriter.encode { w in
            w.sequence { s in
                s.raw(Array(der[version.fullRange]))
                s.raw(Array(der[authSafe.fullRange]))
                s.sequence { md in
                    md.raw(Array(der[mac.fullRange]))
                    md.raw(Array(der[salt.fullRange]))
                    md.integer(count)
                }
            }
        }
    }
}
