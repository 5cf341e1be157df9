import Foundation
import LabServers
import SuiteFixtures
import Synchronization
import Testing
import TrustBuilder
import TrustSupport
import TrustX509

@testable import TrustLab

/// A scenario whose key is slow is served by a `LabDeferredServer`: nothing is made until a
/// client connects, that client is served once it is, and later clients reuse it.
@Suite(.serialized, .onTestThreads) final class LabDeferredServerTests {
    /// The watcher's wake interval here, in milliseconds (the lab's is 200 ms).
    static let wakeInterval: Int32 = 20
    /// Five of those wake-ups: time enough for a watcher that would make the endpoint without a
    /// client, or after stop(), to have done so.
    static let severalWakeUps = useconds_t(wakeInterval) * 5_000
    /// An endpoint like the lab's: a self-signed P-256 leaf (cheap, unlike the RSA keys this
    /// server exists for) answering HTTPS.
    static func endpoint(port: UInt16) throws -> LabEndpoint {
        let key = try KeyPair.generate(.ecP256)
        let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: "deferred.test"), publicKey: key, notBefore: now.adding(seconds: -60),
            notAfter: now.adding(seconds: 86_400))
        b.subjectAltNames = .dns("deferred.test")
        let leaf = try b.selfSign(key: key)
        let tls = LabTLSConfiguration(chain: [leaf], privateKeyPEM: key.privateKeyPEM())
        return LabEndpoint(name: "deferred", port: port, service: .https(tls, page: "deferred\n"))
    }

    /// The lab's server options with deadlines a loaded machine cannot miss (as
    /// `LabOptions.patient`): these tests are not about deadlines.
    static let patient = LabServerOptions(connectionTimeout: 60, readTimeout: 30)

    @Test func testTheEndpointIsMadeForTheFirstClientOnlyAndServesEveryClient() throws {
        let listener = try LabListener.bind(address: "127.0.0.1", port: 0)
        let port = listener.port
        let made = Mutex(0)
        let server = try LabDeferredServer(
            listener: listener, options: Self.patient, wakeInterval: Self.wakeInterval
        ) {
            made.withLock { $0 += 1 }
            return try LabDeferredServerTests.endpoint(port: port)
        }
        defer { server.stop() }
        // The watcher wakes every 20 ms here: five wake-ups with no client make nothing.
        usleep(Self.severalWakeUps)
        #expect((made.withLock { $0 }) == 0, "made before any client connected")

        let first = TestClient.run(port: port)
        #expect(first.served, "\(first.failure)")
        #expect(first.chain.count == 1)
        let second = TestClient.run(port: port)
        #expect(second.served, "\(second.failure)")
        #expect(second.chain == first.chain, "the same certificate for every client")
        #expect((made.withLock { $0 }) == 1)
    }

    @Test func testStoppingBeforeAnyClientClosesThePortAndMakesNothing() throws {
        let listener = try LabListener.bind(address: "127.0.0.1", port: 0)
        let port = listener.port
        let made = Mutex(0)
        let server = try LabDeferredServer(
            listener: listener, options: Self.patient, wakeInterval: Self.wakeInterval
        ) {
            made.withLock { $0 += 1 }
            return try LabDeferredServerTests.endpoint(port: port)
        }
        server.stop()
        let refused = TestClient.run(port: port)
        #expect(!refused.handshake, "the port still accepts after stop()")
        usleep(Self.severalWakeUps)
        #expect((made.withLock { $0 }) == 0)
    }
}
