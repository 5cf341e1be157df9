import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustX509

/// Hostile input files given to the built binary: a flood of CRLs, CRL and chain files that
/// together pass the run's 16 MiB input cap, a PKCS#12 file written as BER to hide its key
/// derivation count, and a property list whose tag name is far longer than a message may quote. Each run ends with an
/// exit status below 128, one line of reason (or the verdict), and no work beyond its bounds.
@Suite(.serialized, .onTestThreads) final class HostileFilesTests {
    var dir: URL!

    init() throws {
        dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-hostile-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: dir) }

    func file(_ name: String) -> String { dir.appendingPathComponent(name).path }

    /// `path`'s PEM text followed by `padding` bytes outside any PEM block (which PEM ignores).
    func padded(_ path: String, _ padding: Int, as name: String) throws -> String {
        var bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        bytes.append(Data(repeating: 0x23, count: padding))
        try bytes.write(to: URL(fileURLWithPath: file(name)))
        return file(name)
    }

    /// The line of the text report that states the verdict.
    func verdictLine(_ r: RunResult) -> String {
        r.out.split(separator: "\n").first { $0.contains("Not trusted:") || $0.contains("Trusted:") }.map(String.init)
            ?? ""
    }

    @Test func testCRLFilesCountTowardsTheRunsInputCap() throws {
        let pki = try TestPKI.get()
        let crl = try pki.crlRevokingTheLeaf(in: dir)
        let first = try padded(crl, 9 * 1024 * 1024, as: "first-crl.pem")
        let second = try padded(crl, 9 * 1024 * 1024, as: "second-crl.pem")
        let base = ["check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"]
        // The two runs go side by side.
        let runs = CLI.runAll([base + ["--crl", first], base + ["--crl", first, "--crl", second]])
        // One 9 MiB CRL file is read and decides: the leaf is revoked.
        let one = try runs[0].get()
        #expect(one.status == 1, "\(one.err)")
        #expect(verdictLine(one).contains("Revoked"), "\(one.out)")
        // Two are 18 MiB together: the second is not read.
        let two = try runs[1].get()
        #expect(two.status == 66, "\(two.out)")
        #expect(two.err == ("Error: \(second): cannot read: the files of this run together are larger than 16 MiB\n"))
    }

    @Test func testAChainFileCountsTowardsTheRunsInputCap() throws {
        let pki = try TestPKI.get()
        let chain = try padded(pki.path("leaf.pem"), 9 * 1024 * 1024, as: "chain.pem")
        let anchor = try padded(pki.path("ca.pem"), 9 * 1024 * 1024, as: "anchor.pem")
        let r = try CLI.run(["check", "--chain", chain, "--anchor", anchor, "--host", "127.0.0.1"])
        #expect(r.status == 66, "\(r.out)")
        #expect(r.err == ("Error: \(anchor): cannot read: the files of this run together are larger than 16 MiB\n"))
    }

    @Test func testAFloodOfForgedCRLsEndsWithTheBudgetStepNotHours() throws {
        let pki = try TestPKI.get()
        // 257 distinct CRLs naming the CA, one more than the budget's 256 signature checks: 256
        // copies of openssl's genuine one, revoking the leaf, whose ECDSA signature's last octets
        // differ, so each costs a verification, and the genuine one last (a CRL that lists the
        // certificate ends the search for it).
        let crl = try String(contentsOfFile: try pki.crlRevokingTheLeaf(in: dir), encoding: .utf8)
        let der = try #require(try PEM.blocks(in: Array(crl.utf8)).first?.der)
        var flood = ""
        for k in 1...256 {
            var forged = der
            forged[forged.count - 1] ^= UInt8(k & 0xFF)
            forged[forged.count - 2] ^= UInt8(k >> 8)
            flood += PEM.encode(forged, label: "X509 CRL")
        }
        flood += crl
        try flood.write(toFile: file("flood.pem"), atomically: true, encoding: .utf8)
        let base = ["check", "--chain", pki.path("leaf.pem"), "--anchor", pki.path("ca.pem"), "--host", "127.0.0.1"]
        // The flood and the genuine CRL alone, side by side.
        let runs = CLI.runAll([
            base + ["--crl", file("flood.pem")], base + ["--crl", try pki.crlRevokingTheLeaf(in: dir)],
        ])
        let r = try runs[0].get()
        #expect(r.status == 1, "\(r.err)")
        #expect(verdictLine(r).contains("Evaluation stopped: more than 256 signature checks"), "\(r.out)")
        // The genuine CRL alone decides as before.
        let genuine = try runs[1].get()
        #expect(verdictLine(genuine).contains("Revoked"), "\(genuine.out)")
    }

    @Test func testABERPKCS12HidingAHugeKeyCountIsRefusedBeforeOpenSSLRunsIt() throws {
        let p12 = file("hostile.p12")
        try Data(HostilePKCS12.ber(password: "hostile", keyIterations: 0x7FFF_FFFF)).write(
            to: URL(fileURLWithPath: p12))
        let r = try CLI.run(["check", "--chain", p12, "--password", "hostile", "--host", "127.0.0.1"])
        #expect(r.status == 65, "\(r.out)")
        #expect((r.err.filter { $0 == "\n" }.count) == 1, "\(r.err)")
        #expect(r.err.contains("2147485695 rounds of password-based key derivation, over the bound"), "\(r.err)")
    }

    @Test func testAPropertyListTagNameFarPastTheQuoteLimitIsQuotedInAFewHundredBytes() throws {
        // Ten times the longest message allowed below: quoted whole, it could not pass; the
        // length is all a longer name adds (megabytes cost the parser time, not the message).
        let name = String(repeating: "k", count: 6_000)
        let plist = "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><\(name)></dict></plist>"
        try plist.write(toFile: file("Info.plist"), atomically: true, encoding: .utf8)
        let r = try CLI.run(["lint", file("Info.plist")])
        #expect(r.status == 65, "\(r.out)")
        #expect((r.err.filter { $0 == "\n" }.count) == 1, "\(String(r.err.prefix(500)))")
        #expect(r.err.utf8.count < 600, "\(String(r.err.prefix(500)))")
        #expect(r.err.contains("… (6000 bytes)"), "\(String(r.err.prefix(500)))")
    }
}

/// A PKCS#12 file written as BER, with the right MAC for its password (RFC 7292 Appendix B).
enum HostilePKCS12 {
    /// TLV with a minimal definite length.
    static func tlv(_ tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [tag]
        if content.count < 0x80 {
            out.append(UInt8(content.count))
        } else {
            var n = content.count
            var octets: [UInt8] = []
            while n > 0 {
                octets.insert(UInt8(n & 0xFF), at: 0)
                n >>= 8
            }
            out += [0x80 | UInt8(octets.count)] + octets
        }
        return out + content
    }

    static func seq(_ parts: [UInt8]...) -> [UInt8] { tlv(0x30, parts.flatMap { $0 }) }

    static func integer(_ v: Int) -> [UInt8] {
        var bytes: [UInt8] = []
        var n = v
        repeat {
            bytes.insert(UInt8(n & 0xFF), at: 0)
            n >>= 8
        } while n > 0
        if bytes[0] & 0x80 != 0 { bytes.insert(0, at: 0) }
        return tlv(0x02, bytes)
    }

    static func oid(_ dotted: String) -> [UInt8] { tlv(0x06, OID(dotted: dotted)!.bytes) }

    /// Its authSafe a constructed, indefinite-length OCTET STRING of 16-byte segments holding one
    /// shrouded key bag whose PBKDF2 asks for `keyIterations` rounds; a SHA-256 MAC of 2,048 rounds.
    static func ber(password: String, keyIterations: Int) -> [UInt8] {
        let pbes2 = seq(
            oid("1.2.840.113549.1.5.13"),
            seq(
                seq(
                    oid("1.2.840.113549.1.5.12"),
                    seq(tlv(0x04, [1, 2, 3, 4, 5, 6, 7, 8]), integer(keyIterations), seq(oid("1.2.840.113549.2.9")))),
                seq(oid("2.16.840.1.101.3.4.1.42"), tlv(0x04, [UInt8](repeating: 7, count: 16)))))
        let bag = seq(
            oid("1.2.840.113549.1.12.10.1.2"), tlv(0xA0, seq(pbes2, tlv(0x04, (0..<64).map { UInt8($0 * 37 & 0xFF) }))))
        let authSafe = seq(seq(oid("1.2.840.113549.1.7.1"), tlv(0xA0, tlv(0x04, seq(bag)))))
        var segments: [UInt8] = []
        for start in stride(from: 0, to: authSafe.count, by: 16) {
            segments += tlv(0x04, Array(authSafe[start..<min(start + 16, authSafe.count)]))
        }
        let salt: [UInt8] = [9, 8, 7, 6, 5, 4, 3, 2]
        func stretch(_ b: [UInt8]) -> [UInt8] { (0..<(64 * ((b.count + 63) / 64))).map { b[$0 % b.count] } }
        let bmp: [UInt8] =
            password.utf16.flatMap { (u: UInt16) -> [UInt8] in [UInt8(u >> 8), UInt8(u & 0xFF)] } + [0, 0]
        var key = [UInt8](repeating: 3, count: 64) + stretch(salt) + stretch(bmp)
        for _ in 0..<2048 { key = Digest.sha256(key) }
        let padded = key + [UInt8](repeating: 0, count: 32)
        let mac = Digest.sha256(padded.map { $0 ^ 0x5C } + Digest.sha256(padded.map { $0 ^ 0x36 } + authSafe))
        let authInfo = tlv(0x30, oid("1.2.840.113549.1.7.1") + [0xA0, 0x80, 0x24, 0x80] + segments + [0, 0, 0, 0])
        let macData = seq(
            seq(seq(oid("2.16.840.1.101.3.4.2.1"), [0x05, 0x00]), tlv(0x04, mac)), tlv(0x04, salt), integer(2048))
        return seq(integer(3), authInfo, macData)
    }
}
