import Foundation
import XCTest

@testable import TrustCore

/// Writes the full-size pathological shapes as PEM files for scripts/slow-shapes.sh, which times
/// `trustx check` on them. Runs only when TRUSTX_SHAPES_DIR names the output directory.
final class FullSizeShapesWriter: XCTestCase {
    func write(_ certificates: [Certificate], to path: String) throws {
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
        try text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    func testWritesFullSizeShapes() throws {
        guard let dir = ProcessInfo.processInfo.environment["TRUSTX_SHAPES_DIR"] else {
            throw XCTSkip("set TRUSTX_SHAPES_DIR to write the full-size shapes (scripts/slow-shapes.sh)")
        }
        // 3,000 SANs under 8 x 8 cross-signed CAs with 3,000 permitted subtrees each.
        try write(
            PathologicalShapes.nameConstraintMesh(sans: 3_000, subtrees: 3_000, width: 8),
            to: dir + "/nc-mesh.pem")
        // Apple's NameConstraintsTests vector: 32,767 SANs against 32,767 subtrees on one path,
        // anchored, which Apple expects to be not trusted.
        let apple = try PathologicalShapes.nameConstraintVector(names: 32_767)
        try write(apple.chain, to: dir + "/nc-32767.pem")
        try write([apple.anchor], to: dir + "/nc-32767-anchor.pem")
        // Just within the default budget: 1,000 names x 999 subtrees, every comparison made.
        let within = try PathologicalShapes.nameConstraintVector(names: 999)
        try write(within.chain, to: dir + "/nc-999.pem")
        try write([within.anchor], to: dir + "/nc-999-anchor.pem")
        // 64 cross-signed intermediates x 100 same-name RSA-3072 candidates with 3,070-bit exponents.
        try write(PathologicalShapes.signatureFlood(valid: 64, bogus: 100), to: dir + "/signature-flood.pem")
        // The costliest keys still accepted (8,192-bit moduli, 32-bit exponents): each check is a
        // real, failing RSA verification, bounded by the signature-check budget.
        try write(
            PathologicalShapes.signatureFlood(valid: 64, bogus: 100, modulusBits: 8192, exponentBits: 32),
            to: dir + "/signature-flood-8192.pem")
    }
}
