import Foundation
import Synchronization
import TrustX509

/// The tests' PKI on disk: certificates, keys, PKCS#12 files, a CRL and an OCSP response made by
/// the openssl command line in a temporary directory, so the code under test reads files an
/// outside implementation wrote. One type with the few operations every set of files is made
/// with (a CA, a certificate it issues, a bundle, the DER form); each test target takes its set
/// once per process: `probe` for the probe's tests, `cli` for the command line's. (The engine's
/// tests build certificates in process with TrustBuilder instead, in TrustCoreTests' `TestPKI`.)
public final class TestPKI: Sendable {
    /// Why a file could not be made, with openssl's message.
    public struct Failure: Error, CustomStringConvertible {
        /// The message.
        public var message: String
        /// The message.
        public var description: String { message }

        /// A failure saying `message`.
        public init(message: String) { self.message = message }
    }

    /// The directory holding the files.
    public let directory: URL
    /// `directory` as a path.
    public var dir: String { directory.path }

    /// An empty PKI in a new temporary directory named after `label`.
    public init(label: String) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent(
            "trustx-\(label)-pki-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// The probe's files: root -> intermediate -> leaf for 127.0.0.1 / ::1 / localhost, a client
    /// CA and client certificate (PEM and PKCS#12), a second server certificate for SNI, an OCSP
    /// response for the leaf, and an SCT serverinfo file.
    public static let probe: Result<TestPKI, Error> = Result { try makeProbeFiles() }

    /// The command line's files: a root CA (`ca.pem`), a leaf for IP 127.0.0.1 with a matching
    /// SAN (`leaf.pem`), valid from now, the CA in DER and PKCS#7, the leaf as PKCS#12, a hostile
    /// self-signed certificate, and a hashed directory `store/` holding the CA, to stand in for
    /// the system trust store.
    public static let cli: Result<TestPKI, Error> = Result { try makeCLIFiles() }

    private static func makeProbeFiles() throws -> TestPKI {
        let pki = try TestPKI(label: "probe")
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
            do { try groups[i](pki) } catch { failures.withLock { $0.append(error) } }
        }
        if let failure = failures.withLock({ $0.first }) { throw failure }
        return pki
    }

    /// A CA certificate's extensions for `issue`.
    public static let caExt =
        "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\nsubjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"

    /// A TLS server certificate's extensions for `issue`, with an AIA caIssuers URL when given.
    public static func serverExt(aia: String? = nil) -> String {
        var ext =
            "basicConstraints=CA:FALSE\nextendedKeyUsage=serverAuth\nsubjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost\n"
            + "subjectKeyIdentifier=hash\nauthorityKeyIdentifier=keyid\n"
        if let aia { ext += "authorityInfoAccess=caIssuers;URI:\(aia)\n" }
        return ext
    }

    /// The path of `name` in the directory.
    public func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    /// Runs `args` (a program on PATH and its arguments) in the directory and returns what it
    /// printed; a failure throws with its standard error.
    @discardableResult
    public func sh(_ args: [String]) throws -> String {
        let r = try ProcessRunner.run("/usr/bin/env", args, in: directory)
        guard r.status == 0 else { throw Failure(message: "\(args.joined(separator: " ")): \(r.err)") }
        return r.out
    }

    /// A self-signed CA `NAME.pem` with its P-256 key `NAME.key` and `NAME.der`.
    public func makeCA(_ name: String, subject: String) throws {
        try sh([
            "openssl", "req", "-x509", "-new", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes",
            "-keyout", "\(name).key", "-out", "\(name).pem", "-subj", subject, "-days", "30",
            "-addext", "basicConstraints=critical,CA:TRUE", "-addext",
            "keyUsage=critical,keyCertSign,cRLSign,digitalSignature",
        ])
        try writeDER(name)
    }

    /// `NAME.der` from `NAME.pem`, decoded here rather than by one more openssl process.
    public func writeDER(_ name: String) throws {
        let pem = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("\(name).pem"))))
        guard let der = try PEM.blocks(in: pem).first?.der else {
            throw Failure(message: "\(name).pem holds no PEM block")
        }
        try Data(der).write(to: URL(fileURLWithPath: path("\(name).der")))
    }

    /// Issues `name` (P-256 key) signed by `issuer`, with the extensions in `ext`.
    public func issue(_ name: String, subject: String, by issuer: String, ext: String) throws {
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
    public func bundle(_ name: String, _ parts: [String]) throws -> String {
        let text = try parts.map { try String(contentsOfFile: path("\($0).pem"), encoding: .utf8) }.joined()
        try text.write(toFile: path(name), atomically: true, encoding: .utf8)
        return path(name)
    }

    /// The DER bytes of `NAME.der`.
    public func der(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("\(name).der"))))
    }

    /// `NAME.der`, decoded.
    public func certificate(_ name: String) throws -> Certificate { try Certificate(der: try der(name)) }

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
    public static let sctLogID = [UInt8](repeating: 0xAB, count: 32)
    /// The time the SCT serverinfo carries, in milliseconds.
    public static let sctTimestamp: UInt64 = 1_700_000_000_000

    /// A serverinfo file (s_server -serverinfo) with one SCT in the TLS extension (type 18).
    private func makeSCTServerInfo() throws {
        var sct: [UInt8] = [0] + Self.sctLogID
        sct += (0..<8).reversed().map { UInt8(Self.sctTimestamp >> (8 * UInt64($0)) & 0xFF) }
        sct += [0, 0]  // no extensions
        sct += [4, 3, 0, 8] + [UInt8](repeating: 0x01, count: 8)  // sha256/ecdsa, 8 signature bytes
        func u16(_ n: Int) -> [UInt8] { [UInt8(n >> 8 & 0xFF), UInt8(n & 0xFF)] }
        let list = u16(sct.count) + sct
        let extData = u16(list.count) + list
        let serverinfo: [UInt8] = [0, 18] + u16(extData.count) + extData
        let pem =
            "-----BEGIN SERVERINFO FOR SCT-----\n\(Data(serverinfo).base64EncodedString(options: .lineLength64Characters))\n-----END SERVERINFO FOR SCT-----\n"
        try pem.write(toFile: path("sct.pem"), atomically: true, encoding: .utf8)
    }

    // MARK: The command line's files

    /// Runs `openssl` with `arguments` in the directory.
    public func openssl(_ arguments: [String]) throws { try sh(["openssl"] + arguments) }

    private static func makeCLIFiles() throws -> TestPKI {
        let pki = try TestPKI(label: "cli")
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try pki.openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "3650", "-subj", "/CN=trustx Test CA",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ])
        try pki.openssl(["req"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1"])
        try """
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth
        subjectAltName=IP:127.0.0.1

        """.write(toFile: pki.path("leaf.ext"), atomically: true, encoding: .utf8)
        try pki.openssl([
            "x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "4660",
            "-days", "365", "-extfile", "leaf.ext", "-out", "leaf.pem",
        ])
        // A self-signed certificate whose subject carries an ANSI escape, a bidi override and a
        // C1 CSI: what a hostile server could present.
        let hostile = "/CN=evil\u{1B}[31mred\u{202E}moc.elgoog\u{9B}2J"
        try pki.openssl(
            ["req", "-x509"] + ec + [
                "-utf8", "-keyout", "hostile.key", "-out", "hostile.pem", "-days", "30", "-subj", hostile,
            ])
        // The CA in the other formats --anchor accepts, and the leaf with its chain as PKCS#12.
        try pki.openssl(["x509", "-in", "ca.pem", "-outform", "DER", "-out", "ca.der"])
        try pki.openssl(["crl2pkcs7", "-nocrl", "-certfile", "ca.pem", "-outform", "DER", "-out", "ca.p7b"])
        try pki.openssl([
            "pkcs12", "-export", "-in", "leaf.pem", "-inkey", "leaf.key", "-certfile", "ca.pem",
            "-passout", "pass:secret", "-out", "leaf.p12",
        ])
        // A system trust store holding only the test CA, in OpenSSL's hashed-directory layout.
        let store = pki.directory.appendingPathComponent("store")
        try FileManager.default.createDirectory(at: store, withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            atPath: pki.path("ca.pem"), toPath: store.appendingPathComponent("ca.pem").path)
        try pki.openssl(["rehash", store.path])
        try "not a certificate\n".write(toFile: pki.path("garbage.pem"), atomically: true, encoding: .utf8)
        return pki
    }

    /// Writes a CRL, made by `openssl ca -gencrl` with the command line's CA, that lists its
    /// leaf's serial (0x1234) as revoked, into `dir`; returns its path.
    public func crlRevokingTheLeaf(in dir: URL) throws -> String {
        try
            "[ca]\ndefault_ca = d\n[d]\ndatabase = index.txt\ncrlnumber = crlnumber\ndefault_md = sha256\ndefault_crl_days = 30\n"
            .write(to: dir.appendingPathComponent("ca.cnf"), atomically: true, encoding: .utf8)
        try "R\t300101000000Z\t250101000000Z\t1234\tunknown\t/CN=127.0.0.1\n".write(
            to: dir.appendingPathComponent("index.txt"), atomically: true, encoding: .utf8)
        try "01\n".write(to: dir.appendingPathComponent("crlnumber"), atomically: true, encoding: .utf8)
        let r = try ProcessRunner.run(
            "/usr/bin/env",
            [
                "openssl", "ca", "-gencrl", "-batch", "-config", "ca.cnf", "-keyfile", path("ca.key"), "-cert",
                path("ca.pem"), "-out", "crl.pem",
            ], in: dir)
        guard r.status == 0 else { throw Failure(message: "openssl ca -gencrl: \(r.err)") }
        return dir.appendingPathComponent("crl.pem").path
    }
}
