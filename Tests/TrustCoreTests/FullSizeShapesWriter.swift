import Foundation
import TrustSupport
import XCTest

@testable import TrustBuilder
@testable import TrustCore
@testable import TrustX509

/// Writes the full-size pathological shapes for scripts/slow-shapes.sh, which times `trustx
/// check` on them as files and over loopback TLS. Runs only when TRUSTX_SHAPES_DIR names the
/// output directory.
final class FullSizeShapesWriter: XCTestCase {
    var dir = ""

    func write(_ certificates: [Certificate], to name: String) throws {
        var text = ""
        for c in certificates {
            let b64 = Base64.encode(c.der)
            var lines: [Substring] = []
            var rest = Substring(b64)
            while !rest.isEmpty {
                lines.append(rest.prefix(64))
                rest = rest.dropFirst(64)
            }
            text += "-----BEGIN CERTIFICATE-----\n" + lines.joined(separator: "\n") + "\n-----END CERTIFICATE-----\n"
        }
        try text.write(toFile: dir + "/" + name, atomically: true, encoding: .utf8)
    }

    /// Writes `chain` as NAME.pem (leaf first), and for serving NAME-leaf.pem, NAME-rest.pem and
    /// NAME.key.
    func writeServable(_ chain: [Certificate], key: KeyPair, as name: String) throws {
        try write(chain, to: name + ".pem")
        try write([chain[0]], to: name + "-leaf.pem")
        try write(Array(chain.dropFirst()), to: name + "-rest.pem")
        try key.privateKeyPEM().write(toFile: dir + "/" + name + ".key", atomically: true, encoding: .utf8)
    }

    func testWritesFullSizeShapes() throws {
        guard let dir = ProcessInfo.processInfo.environment["TRUSTX_SHAPES_DIR"] else {
            throw XCTSkip("set TRUSTX_SHAPES_DIR to write the full-size shapes (scripts/slow-shapes.sh)")
        }
        self.dir = dir
        let key = try KeyPair.generate(.ecP256)
        // The largest mesh worth serving: 3,000 SANs under 8 x 8 cross-signed CAs, one with 3,000 permitted
        // subtrees: 17 certificates, small enough for a TLS server to send.
        try writeServable(
            PathologicalShapes.nameConstraintMesh(sans: 3_000, subtrees: 3_000, width: 8, constrained: 1, leafKey: key),
            key: key, as: "nc-mesh")
        // Every upper CA constrained: 64 paths each over the budget on its own.
        try write(
            PathologicalShapes.nameConstraintMesh(sans: 3_000, subtrees: 3_000, width: 8), to: "nc-mesh-all.pem")
        // Apple's NameConstraintsTests vector: 32,767 SANs against 32,767 subtrees on one path,
        // anchored, which Apple expects to be not trusted.
        let apple = try PathologicalShapes.nameConstraintVector(names: 32_767)
        try write(apple.chain, to: "nc-32767.pem")
        try write([apple.anchor], to: "nc-32767-anchor.pem")
        // Just within the default budget: 1,000 names x 999 subtrees, every comparison made.
        let within = try PathologicalShapes.nameConstraintVector(names: 999)
        try write(within.chain, to: "nc-999.pem")
        try write([within.anchor], to: "nc-999-anchor.pem")
        // 64 cross-signed intermediates x 100 same-name RSA-3072 candidates with 3,070-bit
        // exponents (6,400 checks of about 4 ms each without the refusal).
        try write(PathologicalShapes.signatureFlood(valid: 64, bogus: 100), to: "signature-flood.pem")
        // The same within the probe's 100-certificate cap, for a TLS server.
        try writeServable(
            PathologicalShapes.signatureFlood(valid: 32, bogus: 60, leafKey: key), key: key, as: "signature-flood-tls")
        // The costliest keys still accepted (8,192-bit moduli, 32-bit exponents): each check is a
        // real, failing RSA verification, bounded by the signature-check budget.
        try write(
            PathologicalShapes.signatureFlood(valid: 64, bogus: 100, modulusBits: 8192, exponentBits: 32),
            to: "signature-flood-8192.pem")
        // 250 candidates whose 3,070-bit exponents have their length written `83 00 01 80`: BER
        // that OpenSSL reads, refused before it sees them (D320).
        try write(
            PathologicalShapes.signatureFlood(valid: 1, bogus: 250, nonMinimalExponentLength: true),
            to: "signature-flood-lax.pem")
        // Within every budget but slow: 2 x 120 real, failing 8,192-bit verifications, which the
        // "trusted by" comparison would make again under the other store (D326).
        try write(
            PathologicalShapes.signatureFlood(valid: 2, bogus: 120, modulusBits: 8192, exponentBits: 32),
            to: "store-fanout.pem")
        // A PKCS#12 whose MAC asks for 2^31 - 1 iterations.
        let keyPath = dir + "/p12.key"
        try key.privateKeyPEM().write(toFile: keyPath, atomically: true, encoding: .utf8)
        let p12 = dir + "/plain.p12"
        _ = try Shell.output(
            "openssl pkcs12 -export -in \(dir)/signature-flood-tls-leaf.pem -inkey \(keyPath) -passout pass:x -out \(p12)"
        )
        let patched = try PKCS12IterationTests.replacingMACIterations(
            of: Array(Data(contentsOf: URL(fileURLWithPath: p12))), with: 0x7FFF_FFFF)
        try Data(patched).write(to: URL(fileURLWithPath: dir + "/huge-mac.p12"))
    }
}
