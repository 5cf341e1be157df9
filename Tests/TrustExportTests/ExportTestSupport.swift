import Foundation
import SuiteFixtures
import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509
import XCTest

/// A root, an intermediate and a leaf for www.example.com, built in process.
struct ExportChain {
    var root: Certificate
    var intermediate: Certificate
    var leaf: Certificate
    var path: [Certificate] { [leaf, intermediate, root] }

    static let now = Timestamp(year: 2025, month: 6, day: 1)!

    /// `rootName` and `leafName` become common names (anything, for the escaping tests).
    static func make(rootName: String = "Export Root", leafName: String = "www.example.com") throws -> ExportChain {
        let rootKey = try KeyPair.generate(.ecP256)
        let intermediateKey = try KeyPair.generate(.ecP256)
        let leafKey = try KeyPair.generate(.ecP256)
        var r = CertificateBuilder(
            subject: NameBuilder(commonName: rootName), publicKey: rootKey,
            notBefore: now.adding(seconds: -86_400 * 365), notAfter: now.adding(seconds: 86_400 * 3650))
        r.basicConstraints = .init(isCA: true)
        r.keyUsage = .init([.keyCertSign, .cRLSign])
        let root = try r.selfSign(key: rootKey)
        var i = CertificateBuilder(
            subject: NameBuilder(commonName: "Export Intermediate"), publicKey: intermediateKey,
            notBefore: now.adding(seconds: -86_400 * 180), notAfter: now.adding(seconds: 86_400 * 1825))
        i.basicConstraints = .init(isCA: true)
        i.keyUsage = .init([.keyCertSign, .cRLSign])
        let intermediate = try i.sign(issuerKey: rootKey, issuer: root)
        var l = CertificateBuilder(
            subject: NameBuilder(commonName: leafName), publicKey: leafKey,
            notBefore: now.adding(seconds: -86_400 * 30), notAfter: now.adding(seconds: 86_400 * 365))
        l.keyUsage = .init([.digitalSignature])
        l.extendedKeyUsage = .init([.serverAuth])
        l.subjectAltNames = .dns("www.example.com")
        let leaf = try l.sign(issuerKey: intermediateKey, issuer: intermediate)
        return ExportChain(root: root, intermediate: intermediate, leaf: leaf)
    }
}

/// Runs programs for the tests through SuiteFixtures' runner, which drains both outputs at once.
enum Run {
    struct Result {
        var status: Int32
        var out: String
        var err: String
    }

    static func program(_ path: String, _ arguments: [String], stdin: String? = nil, in directory: URL? = nil) throws
        -> Result
    {
        let r = try ProcessRunner.run(path, arguments, in: directory, stdin: stdin.map { Data($0.utf8) })
        return Result(status: r.status, out: r.out, err: r.err)
    }

    /// A scratch directory removed by the caller.
    static func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

    static let swiftc = "/opt/swift/usr/bin/swiftc"
}
