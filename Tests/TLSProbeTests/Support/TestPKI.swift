import Foundation
import Synchronization
import TrustCore
import TrustX509
import XCTest

/// A PKI made with the openssl CLI in a temporary directory, once per test process:
/// root -> intermediate -> leaf for 127.0.0.1 / ::1 / localhost, a client CA and client
/// certificate (PEM and PKCS#12), a second server certificate for SNI, an OCSP response for the
/// leaf, and an SCT serverinfo file.
final class TestPKI: Sendable {
    let dir: String

    static let shared: Result<TestPKI, Error> = Result { try TestPKI() }

    static func get() throws -> TestPKI { try shared.get() }

    private init() throws {
        dir = NSTemporaryDirectory() + "trustx-probe-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Three independent groups of files, made side by side: some twenty openssl processes
        // that mostly wait on their own start-up.
        let groups: [@Sendable (TestPKI) throws -> Void] = [
            { pki in
                try pki.makeCA("root", subject: "/CN=Probe Test Root")
                try pki.issue("int", subject: "/CN=Probe Test Intermediate", by: "root", ext: Self.caExt)
                try pki.issue("leaf", subject: "/CN=127.0.0.1", by: "int", ext: Self.serverExt())
                try pki.makeOCSPResponse()
            },
            { pki in
                try pki.makeCA("clientca", subject: "/O=Probe/CN=Probe Client CA")
                try pki.issue(
                    "client", subject: "/CN=probe client", by: "clientca",
                    ext: "basicConstraints=CA:FALSE\nextendedKeyUsage=clientAuth\n")
                try pki.sh([
                    "openssl", "pkcs12", "-export", "-in", "client.pem", "-inkey", "client.key", "-out", "client.p12",
                    "-passout", "pass:secret",
                ])
                // RC2/3DES as older tools export it: OpenSSL 3 reads it only with the legacy provider.
                try pki.sh([
                    "openssl", "pkcs12", "-export", "-legacy", "-in", "client.pem", "-inkey", "client.key", "-out",
                    "client-legacy.p12", "-passout", "pass:secret",
                ])
            },
            { pki in
                try pki.makeCA("other", subject: "/CN=other.test")
                try pki.makeSCTServerInfo()
            },
        ]
        let failures = Mutex<[any Error]>([])
        DispatchQueue.concurrentPerform(iterations: groups.count) { i in
            do { try groups[i](self) } catch { failures.withLock { $0.append(error) } }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
    }

    static let caExt =
        "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"

    static func serverExt(aia: String? = nil) -> String {
        var ext =
            "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n"
            + "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"
        if let aia { ext += "authorityInfoAccess=caIssuers;URI:\(aia)\n" }
        return ext
    }

    func path(_ name: String) -> String { dir + "/" + name }

    @discardableResult
    func sh(_ args: [String]) throws -> String {
        let r = try runCommand(args, cwd: dir)
        guard r.status == 0 else {
            throw NSError(
                domain: "pki", code: Int(r.status),
                userInfo: [NSLocalizedDescriptionKey: "\(args.joined(separator: " ")): \(r.err)"])
        }
        return r.out
    }

    func makeCA(_ name: String, subject: String) throws {
        try sh([
            "openssl", "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).pem", "-subj", subject, "-days", "30",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
            "keyUsage=critical,keyCertSign,cRLSign,digitalSignature",
        ])
        try writeDER(name)
    }

    /// `NAME.der` from `NAME.pem`, decoded here rather than by one more openssl process.
    func writeDER(_ name: String) throws {
        let pem = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("\(name).pem"))))
        guard let der = try PEM.blocks(in: pem).first?.der else {
            throw NSError(
                domain: "pki", code: 1, userInfo: [NSLocalizedDescriptionKey: "\(name).pem holds no PEM block"])
        }
        try Data(der).write(to: URL(fileURLWithPath: path("\(name).der")))
    }

    /// Issues `name` (P-256 key) signed by `issuer`, with the extensions in `ext`.
    func issue(_ name: String, subject: String, by issuer: String, ext: String) throws {
        try ext.write(toFile: path("\(name).ext"), atomically: true, encoding: .utf8)
        try sh([
            "openssl", "req", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).csr", "-subj", subject,
        ])
        let serial = "0x" + (0..<8).map { _ in String(format: "%02x", UInt8.random(in: 1...255)) }.joined()
        try sh([
            "openssl", "x509", "-req", "-in", "\(name).csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
            "-set_serial", serial, "-out", "\(name).pem", "-days", "30", "-extfile", "\(name).ext",
        ])
        try writeDER(name)
    }

    /// Writes `content` (PEM files concatenated) to `name`.
    func bundle(_ name: String, _ parts: [String]) throws -> String {
        let text = try parts.map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined()
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    func der(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("\(name).der"))))
    }

    func certificate(_ name: String) throws -> Certificate { try Certificate(der: try der(name)) }

    /// A "good" OCSP response for the leaf, signed by the intermediate (openssl ocsp as responder).
    private func makeOCSPResponse() throws {
        let serialLine = try sh(["openssl", "x509", "-in", "leaf.pem", "-noout", "-serial"])
        let serial = serialLine.trimmingCharacters(in: .whitespacesAndNewlines).replacingOccurrences(
            of: "serial=", with: "")
        try "V\t301231235959Z\t\t\(serial)\tunknown\t/CN=127.0.0.1\n".write(
            toFile: path("index.txt"), atomically: true, encoding: .utf8)
        try sh(["openssl", "ocsp", "-issuer", "int.pem", "-cert", "leaf.pem", "-no_nonce", "-reqout", "ocsp-req.der"])
        try sh([
            "openssl", "ocsp", "-index", "index.txt", "-rsigner", "int.pem", "-rkey", "int.key", "-CA", "int.pem",
            "-reqin", "ocsp-req.der", "-respout", "ocsp.der", "-ndays", "1",
        ])
    }

    /// The log ID the SCT serverinfo carries.
    static let sctLogID = [UInt8](repeating: 0xAB, count: 32)
    static let sctTimestamp: UInt64 = 1_700_000_000_000

    /// A serverinfo file (s_server -serverinfo) with one SCT in the TLS extension (type 18).
    private func makeSCTServerInfo() throws {
        var sct: [UInt8] = [0] + Self.sctLogID
        sct += (0..<8).reversed().map { UInt8(Self.sctTimestamp >> (8 * UInt64($0)) & 0xFF) }
        sct += [0, 0]  // no extensions
        sct += [4, 3, 0, 8] + [UInt8](repeating: 0x01, count: 8)  // sha256/ecdsa, 8 signature bytes
        let list = Records.u16(sct.count) + sct
        let extData = Records.u16(list.count) + list
        let serverinfo: [UInt8] = [0, 18] + Records.u16(extData.count) + extData
        let pem =
            "-----BEGIN SERVERINFO FOR SCT-----\n\(Data(serverinfo).base64EncodedString(options: .lineLength64Characters))\n-----END SERVERINFO FOR SCT-----\n"
        try pem.write(toFile: path("sct.pem"), atomically: true, encoding: .utf8)
    }
}
