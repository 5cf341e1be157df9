import COpenSSL
import XCTest

@testable import TrustCore
@testable import TrustX509

final class OpenSSLErrorQueueTests: XCTestCase {
    /// Pushes at least one entry by asking OpenSSL to decode a name that is not DER.
    private func provokeError() {
        let garbage: [UInt8] = [0x04, 0x01, 0x00]
        garbage.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            if let name = d2i_X509_NAME(nil, &p, buf.count) { X509_NAME_free(name) }
        }
    }

    func testDrainEmptiesTheQueueAndKeepsAtMostTheLimit() {
        ERR_clear_error()
        // OpenSSL's queue is a ring of 16 slots, so more than 15 entries never wait in it.
        for _ in 0..<8 { provokeError() }
        let entries = OpenSSLErrorQueue.drainEntries(limit: 4)
        XCTAssertEqual(entries.count, 4)
        XCTAssertEqual(OpenSSLErrorQueue.drain(), [], "the entries past the limit were drained too")
        XCTAssertEqual(OpenSSLErrorQueue.drainedLine(), "no OpenSSL error recorded")
        // ERR_error_string_n's format: error:<hex code>:<library>:<function>:<reason>.
        for e in entries {
            XCTAssertTrue(e.line.hasPrefix("error:"), e.line)
            XCTAssertTrue(e.line.hasSuffix(e.reasonText), e.line)
        }
    }
}
