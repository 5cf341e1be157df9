import Foundation
import Synchronization
import TrustCore
import TrustExport
import TrustSupport
import TrustX509
import XCTest

final class SwiftDelegateExportTests: XCTestCase {
    func settings(_ chain: ExportChain, policy: TrustPolicy = .ssl(host: "www.example.com"), keepsSystem: Bool = false)
        -> ExportSettings
    {
        ExportSettings(
            host: "www.example.com",
            anchorFiles: [ExportFile(path: "root ca.pem", certificates: [chain.root], isPEM: true)],
            keepsSystemAnchors: keepsSystem, policy: policy,
            pins: [chain.leaf.spkiSHA256, chain.intermediate.spkiSHA256], path: chain.path)
    }

    /// swiftc -parse: the syntax of the whole file (Security and CryptoKit are not type-checked).
    /// Parses each source as its own file, all in one `swiftc -parse` run (a run costs a quarter
    /// of a second; parsing alone never looks across files, so they cannot clash).
    func parse(_ sources: String..., file: StaticString = #filePath, line: UInt = #line) throws {
        try parse(sources, file: file, line: line)
    }

    func parse(_ sources: [String], file: StaticString = #filePath, line: UInt = #line) throws {
        let dir = try Run.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        var paths: [String] = []
        for (index, source) in sources.enumerated() {
            let url = dir.appendingPathComponent("PinnedTrustDelegate\(index).swift")
            try source.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let r = try Run.program(Run.swiftc, ["-parse"] + paths)
        XCTAssertEqual(r.status, 0, r.err, file: file, line: line)
        XCTAssertEqual(r.err, "", file: file, line: line)
    }

    /// Settings whose names, host and anchor path are hostile Swift: comment closers, quotes,
    /// interpolation, a line break with an import, a bidi override.
    func hostileSettings() throws -> ExportSettings {
        let evil = "x */ \" \\(exit(1)) \n import Evil \u{202E} --> "
        let chain = try ExportChain.make(rootName: evil, leafName: evil)
        var s = settings(chain)
        s.host = "www.example.com\"; exit(1); \""
        s.anchorFiles[0].path = "/tmp/\(evil).pem"
        return s
    }

    /// Basic X.509 settings that require a positive revocation answer.
    func revocationSettings() throws -> ExportSettings {
        var s = settings(try ExportChain.make(), policy: .basicX509)
        s.requiresRevocation = true
        return s
    }

    /// Every kind of settings, the hostile ones and the revocation ones parse, in one swiftc run;
    /// the other tests read the source as text.
    func testEveryKindOfSettingsGivesSourceThatParses() throws {
        let chain = try ExportChain.make()
        var variants: [ExportSettings] = []
        for policy in [TrustPolicy.ssl(host: "www.example.com"), .ssl(host: nil), .basicX509] {
            for keep in [false, true] { variants.append(settings(chain, policy: policy, keepsSystem: keep)) }
        }
        var none = ExportSettings(host: nil)
        none.pins = []
        variants.append(none)
        var device = settings(chain)
        device.anchorClass = .device
        device.time = ExportChain.now
        device.maximumTLSVersion = .tls1_2
        variants.append(device)
        variants.append(try hostileSettings())
        variants.append(try revocationSettings())
        try parse(variants.map { SwiftDelegateExport.render($0) })
    }

    /// That the source parses: testEveryKindOfSettingsGivesSourceThatParses.
    func testHostileNamesAndPathsStayInsideCommentsAndLiterals() throws {
        let source = SwiftDelegateExport.render(try hostileSettings())
        XCTAssertFalse(source.contains("\n import Evil"), "a name broke out of its comment")
        XCTAssertFalse(source.contains("\u{202E}"))
        XCTAssertTrue(source.unicodeScalars.allSatisfy { $0 == "\n" || ($0.value >= 0x20 && $0.value < 0x7F) })
    }

    func testCallsComeInAppleOrderAnchorsSystemRootsPolicyEvaluationPins() throws {
        let source = SwiftDelegateExport.render(settings(try ExportChain.make(), keepsSystem: true))
        let calls = [
            "SecTrustSetAnchorCertificates(trust", "SecTrustSetAnchorCertificatesOnly(trust, false)",
            "SecTrustSetPolicies(trust", "SecTrustEvaluateWithError(trust", "SecTrustCopyCertificateChain(trust",
        ]
        let positions = try calls.map { call in
            try XCTUnwrap(source.range(of: call)?.lowerBound, "missing \(call)")
        }
        XCTAssertEqual(positions, positions.sorted(), "out of order")
    }

    func testSystemRootsStayOffUnlessKept() throws {
        let chain = try ExportChain.make()
        XCTAssertFalse(
            SwiftDelegateExport.render(settings(chain)).contains("SecTrustSetAnchorCertificatesOnly(trust"))
        XCTAssertTrue(
            SwiftDelegateExport.render(settings(chain, keepsSystem: true)).contains(
                "SecTrustSetAnchorCertificatesOnly(trust, false)"))
    }

    func testDeviceTrustedAnchorsAreNotSetByTheApp() throws {
        var s = settings(try ExportChain.make())
        s.anchorClass = .device
        let source = SwiftDelegateExport.render(s)
        XCTAssertFalse(source.contains("SecTrustSetAnchorCertificates("))
        XCTAssertFalse(source.contains("anchorCertificates"))
    }

    func testEachPolicyIsCreatedAsApplesAPISpellsIt() throws {
        let chain = try ExportChain.make()
        let expected: [(TrustPolicy, String)] = [
            (.ssl(host: "www.example.com"), "SecPolicyCreateSSL(true, \"www.example.com\" as CFString)"),
            (.ssl(host: nil), "SecPolicyCreateSSL(true, nil)"),
            (.basicX509, "SecPolicyCreateBasicX509()"),
        ]
        for (policy, call) in expected {
            let source = SwiftDelegateExport.render(settings(chain, policy: policy))
            XCTAssertTrue(source.contains("SecTrustSetPolicies(trust, \(call))"), "\(policy)")
        }
    }

    /// That the source parses: testEveryKindOfSettingsGivesSourceThatParses.
    func testARequiredRevocationAnswerAddsApplesRevocationPolicyWithThePositiveResponseFlag() throws {
        let s = try revocationSettings()
        let source = SwiftDelegateExport.render(s)
        // SecPolicyCreateRevocation's flags as Security's SecPolicy.h names them.
        XCTAssertTrue(
            source.contains(
                "SecTrustSetPolicies(trust, [SecPolicyCreateBasicX509(), SecPolicyCreateRevocation(kSecRevocationUseAnyAvailableMethod | kSecRevocationRequirePositiveResponse)!] as CFArray)"
            ), source)
        XCTAssertFalse(s.unexpressed(in: .swift).contains { $0.contains("--require-revocation") })
        XCTAssertTrue(s.unexpressed(in: .curl).contains { $0.contains("--require-revocation") })
    }

    func testTheEmbeddedAnchorIsTheAnchorsDERAndThePinsAreListed() throws {
        let chain = try ExportChain.make()
        let source = SwiftDelegateExport.render(settings(chain))
        XCTAssertTrue(source.contains("\"\(Data(chain.root.der).base64EncodedString())\""))
        XCTAssertTrue(source.contains("\"\(Data(chain.leaf.spkiSHA256).base64EncodedString())\",  // leaf: "))
        XCTAssertTrue(source.contains("\"\(Data(chain.intermediate.spkiSHA256).base64EncodedString())\",  // path #1"))
    }

    func testWithoutPinsEvaluationDecidesAndNoChainIsRead() throws {
        var s = settings(try ExportChain.make())
        s.pins = []
        let source = SwiftDelegateExport.render(s)
        XCTAssertFalse(source.contains("SecTrustCopyCertificateChain(trust"))
        XCTAssertTrue(source.contains("// No pins: evaluation decides."))
    }

    /// The generated SubjectPublicKeyInfo builder, compiled and run here, must rebuild exactly the
    /// DER that openssl writes for RSA and EC keys of every usual size; the program also prints
    /// Swift literals of hostile text, which must read back as the text.
    func testGeneratedSPKIBuilderMatchesOpenSSLAndLiteralsReadBack() throws {
        let dir = try Run.scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let literals = EscapingTests.hostile
        // One array of the literals and one expression over it: a statement per literal, each
        // with its own closures, costs the type checker most of a second.
        var main = "let literals: [String] = [\n"
        for text in literals { main += "    \(Escaping.swiftStringLiteral(text)),\n" }
        main += """
            ]
            print(literals.map { $0.utf8.map { String($0) }.joined(separator: ",") }.joined(separator: " "))
            let args = Array(CommandLine.arguments.dropFirst())
            var i = 0
            while i + 1 < args.count {
                var raw: [UInt8] = []
                var hex = Substring(args[i + 1])
                while !hex.isEmpty {
                    raw.append(UInt8(hex.prefix(2), radix: 16)!)
                    hex = hex.dropFirst(2)
                }
                let der = SubjectPublicKeyInfo.der(rawKey: raw, isRSA: args[i] == "rsa") ?? []
                print(der.map { String($0, radix: 16) }.map { $0.count == 1 ? "0" + $0 : $0 }.joined())
                i += 2
            }

            """
        try SwiftDelegateExport.spkiHelperSource.write(
            to: dir.appendingPathComponent("helper.swift"), atomically: true, encoding: .utf8)
        try main.write(to: dir.appendingPathComponent("main.swift"), atomically: true, encoding: .utf8)
        // swiftc compiles (one whole-module job) on a thread of its own while openssl makes the
        // expected SubjectPublicKeyInfos here; the program runs once both are done.
        let compilation = Mutex<Swift.Result<Run.Result, any Error>?>(nil)
        let compiled = DispatchSemaphore(value: 0)
        let program = dir.appendingPathComponent("spki").path
        Thread.detachNewThread {
            let result = Swift.Result {
                try Run.program(Run.swiftc, ["-wmo", "-o", program, "main.swift", "helper.swift"], in: dir)
            }
            compilation.withLock { $0 = result }
            compiled.signal()
        }

        var arguments: [String] = []
        var expected: [String] = []
        // RSA public keys need no key generation (seconds for 4096 bits): a PKCS#1 RSAPublicKey of
        // a random odd modulus of the size, which openssl reads and writes as a SubjectPublicKeyInfo.
        let keys: [(String, [String])] = [
            ("rsa", ["2048"]), ("rsa", ["3072"]), ("rsa", ["4096"]),
            ("ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"]),
            ("ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-384"]),
            ("ec", ["-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-521"]),
        ]
        for (n, (type, options)) in keys.enumerated() {
            var raw: [UInt8] = []
            if type == "rsa" {
                // What SecKeyCopyExternalRepresentation returns for RSA: PKCS#1 RSAPublicKey.
                raw = Self.rsaPublicKey(bits: Int(options[0])!)
                try Data(raw).write(to: dir.appendingPathComponent("raw\(n).der"))
                let converted = try Run.program(
                    "/usr/bin/openssl",
                    [
                        "rsa", "-RSAPublicKey_in", "-inform", "DER", "-in", "raw\(n).der", "-pubout", "-outform", "DER",
                        "-out", "spki\(n).der",
                    ], in: dir)
                XCTAssertEqual(converted.status, 0, converted.err)
            } else {
                let key = "k\(n).pem"
                _ = try Run.program("/usr/bin/openssl", ["genpkey"] + options + ["-out", key], in: dir)
                _ = try Run.program(
                    "/usr/bin/openssl", ["pkey", "-in", key, "-pubout", "-outform", "DER", "-out", "spki\(n).der"],
                    in: dir)
            }
            let spki = [UInt8](try Data(contentsOf: dir.appendingPathComponent("spki\(n).der")))
            expected.append(spki.map { String(format: "%02x", $0) }.joined())
            if type == "ec" {
                // For EC, the uncompressed point: RFC 5480 puts it, whole, at the end of the SPKI.
                let length = [256: 65, 384: 97, 521: 133][[0: 256, 1: 384, 2: 521][n - 3]!]!
                raw = Array(spki.suffix(length))
                XCTAssertEqual(raw.first, 0x04)
            }
            arguments += [type, raw.map { String(format: "%02x", $0) }.joined()]
        }
        compiled.wait()
        let compile = try XCTUnwrap(compilation.withLock { $0 }).get()
        XCTAssertEqual(compile.status, 0, compile.err)
        let r = try Run.program(program, arguments)
        XCTAssertEqual(r.status, 0, r.err)
        var lines = r.out.split(separator: "\n").map(String.init)
        let literalLine = lines.removeFirst()
        let decoded = literalLine.split(separator: " ", omittingEmptySubsequences: false).map { field in
            String(decoding: field.split(separator: ",").map { UInt8($0)! }, as: UTF8.self)
        }
        XCTAssertEqual(decoded, literals)
        XCTAssertEqual(lines, expected)
    }

    /// A DER PKCS#1 RSAPublicKey with a random odd modulus of exactly `bits` bits and exponent 65537.
    static func rsaPublicKey(bits: Int) -> [UInt8] {
        func length(_ n: Int) -> [UInt8] {
            n < 0x80 ? [UInt8(n)] : n < 0x100 ? [0x81, UInt8(n)] : [0x82, UInt8(n >> 8), UInt8(n & 0xFF)]
        }
        var modulus = (0..<bits / 8).map { _ in UInt8.random(in: 0...255) }
        modulus[0] |= 0xC0
        modulus[modulus.count - 1] |= 1
        let integer = [0x02] + length(modulus.count + 1) + [0x00] + modulus
        let body = integer + [0x02, 0x03, 0x01, 0x00, 0x01]
        return [0x30] + length(body.count) + body
    }
}
