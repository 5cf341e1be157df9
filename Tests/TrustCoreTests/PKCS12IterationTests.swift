import XCTest

@testable import TrustCore

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
        XCTAssertEqual(inspection, .init(total: counts.reduce(0, +), hasMAC: true, innerReadable: true))
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
            try PKCS12Iterations.inspect(pfx).get(), .init(total: 0x7FFF_FFFF, hasMAC: false, innerReadable: true))
        XCTAssertNotNil(PKCS12Iterations.refusal(pfx))
        XCTAssertThrowsError(try CertificateLoader.decode(pfx, password: "x")) { error in
            XCTAssertTrue("\(error)".contains("over the bound"), "\(error)")
        }
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
