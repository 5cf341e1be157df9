import Foundation
import Synchronization
import TrustCore
import TrustSupport
import TrustX509
import XCTest

@testable import LabServers
@testable import TrustBuilder
@testable import TrustLab

/// Starting, serving a room, stopping: each test runs its own small lab.
final class LabLifecycleTests: XCTestCase {
    func mode(_ path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_mode & 0o777)
    }

    func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    func testATrainingRoomOfTwentyClientsPerScenarioIsServedTwiceOver() throws {
        // The room's lab: one server of each kind (RoomLab.scenarios); twenty clients on each of
        // its eight servers outnumber the lab's 32 workers five times over.
        let lab = try RoomLab.shared()
        XCTAssertEqual(Set(lab.scenarios.map(\.name)), Set(RoomLab.scenarios))
        let before = lab.statistics
        let failures = Mutex<[String]>([])
        let rounds = 2
        for round in 1...rounds {
            // One thread per client, released together, so the twenty of a scenario really are
            // concurrent (a dispatch pool would run only as many as there are cores).
            let jobs = lab.scenarios.flatMap { s in (0..<20).map { _ in s } }
            let gate = Mutex(false)
            let done = DispatchGroup()
            var threads: [Thread] = []
            for s in jobs {
                done.enter()
                let t = Thread {
                    while !gate.withLock({ $0 }) { usleep(1000) }
                    let r = TestClient.run(
                        port: s.port, minimumVersion: TestClient.minimumVersion(for: s.name),
                        smtp: s.scenario.serviceProtocol == .smtpStartTLS)
                    let pageShown =
                        s.scenario.serviceProtocol == .smtpStartTLS || r.response.contains("scenario \(s.name)")
                    if !r.served || !pageShown {
                        failures.withLock { $0.append("round \(round) \(s.name): \(r.failure)") }
                    }
                    done.leave()
                }
                t.stackSize = 256 * 1024
                threads.append(t)
                t.start()
            }
            gate.withLock { $0 = true }
            done.wait()
        }
        XCTAssertEqual(failures.withLock { $0 }, [])
        let stats = lab.statistics
        XCTAssertEqual(stats.served - before.served, lab.scenarios.count * 20 * rounds)
        XCTAssertEqual(stats.dropped - before.dropped, 0)
        // Every server is still alive.
        for s in lab.scenarios {
            XCTAssertTrue(
                TestClient.run(
                    port: s.port, minimumVersion: TestClient.minimumVersion(for: s.name),
                    smtp: s.scenario.serviceProtocol == .smtpStartTLS
                ).served, s.name)
        }
    }

    func testStopLeavesNoListeningPortAndNoFiles() throws {
        let lab = try Lab.start(LabOptions(scenarios: ["good", "missing-intermediate-aia", "mtls-required"]))
        let ports = lab.scenarios.map(\.port) + [try XCTUnwrap(lab.aiaPort)]
        let directory = lab.directory
        XCTAssertFalse(lab.keepsFiles)
        XCTAssertEqual(mode(directory), 0o700)
        let files = [
            lab.anchor(.libraryTestCA).path, lab.clientIdentity.pkcs12Path, lab.clientIdentity.privateKeyPath,
            directory + "/lab.json", directory + "/intermediate.der", try XCTUnwrap(lab.scenario("good")).chainPath,
        ]
        for file in files { XCTAssertEqual(mode(file), 0o600, file) }
        for port in ports { XCTAssertNotNil(TestClient.connect(port: port).map { close($0) }, "port \(port) open") }
        // A connection in progress when the lab stops is cut off, not waited for.
        let silent = try XCTUnwrap(TestClient.connect(port: ports[0]))
        defer { close(silent) }
        let started = Date()
        lab.stop()
        XCTAssertLessThan(Date().timeIntervalSince(started), 2)
        for port in ports { XCTAssertNil(TestClient.connect(port: port), "port \(port) still accepts") }
        XCTAssertFalse(exists(directory), "\(directory) was not removed")
        lab.stop()  // idempotent
    }

    func testAnOutputDirectoryIsKeptAfterStop() throws {
        let out = NSTemporaryDirectory() + "trustx-lab-out-\(UUID().uuidString)"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let lab = try Lab.start(LabOptions(scenarios: ["good"], outputDirectory: out))
        XCTAssertTrue(lab.keepsFiles)
        XCTAssertEqual(lab.directory, out)
        XCTAssertEqual(mode(out), 0o700)
        lab.stop()
        XCTAssertTrue(exists(out + "/library-test-ca.pem"))
        XCTAssertEqual(mode(out + "/client-key.pem"), 0o600)
        let anchors = try CertificateLoader.load(path: out + "/library-test-ca.pem")
        XCTAssertEqual(anchors.first?.subject.description, "CN=Library Test CA")
    }

    func testAFixedPortBasePutsEachScenarioAtItsOffset() throws {
        // A base in the ephemeral range's upper end, unlikely to be taken; skip if it is.
        let base = 40_000 + Int(getpid() % 2_000) * 10
        let lab: Lab
        do {
            lab = try Lab.start(
                LabOptions(scenarios: ["good", "wrong-host", "missing-intermediate-aia"], portBase: base))
        } catch LabError.bind {
            throw XCTSkip("port base \(base) is in use")
        }
        defer { lab.stop() }
        XCTAssertEqual(lab.scenario("good")?.port, UInt16(base))
        XCTAssertEqual(lab.scenario("wrong-host")?.port, UInt16(base + 1))
        XCTAssertEqual(lab.aiaPort, UInt16(base + LabScenario.aiaPortOffset))
        XCTAssertEqual(lab.aiaURL, "http://127.0.0.1:\(base + 99)/intermediate.der")
        XCTAssertThrowsError(try Lab.start(LabOptions(portBase: 65_500)))
    }

    func testAnotherListenAddressIsNamedByTheLeavesAndTheURLs() throws {
        let lab: Lab
        do {
            lab = try Lab.start(LabOptions(scenarios: ["good", "wrong-host"], listenAddress: "::1"))
        } catch LabError.bind {
            throw XCTSkip("no IPv6 loopback here")
        }
        defer { lab.stop() }
        let good = try XCTUnwrap(lab.scenario("good"))
        XCTAssertEqual(good.url, "https://[::1]:\(good.port)/")
        XCTAssertEqual(good.host, "::1")
        XCTAssertEqual(lab.scenario("wrong-host")?.host, "localhost")
        XCTAssertEqual(good.served[0].ipAddresses.count, 2)
        let settings = TrustSettings(
            anchors: [lab.anchor(.libraryTestCA).certificate], policy: .ssl(host: good.host),
            time: Timestamp(secondsSinceEpoch: Int64(time(nil))))
        XCTAssertEqual(Evaluator().evaluate(chain: good.served, settings: settings)?.verdict.trusted, true)
        let r = try Shell.run(
            "timeout 20 openssl s_client -connect '[::1]:\(good.port)' -verify_return_error -CAfile '\(good.anchorPath)'"
                + " -verify_ip ::1")
        XCTAssertEqual(r.status, 0, r.output)
        XCTAssertFalse(LabOptions(listenAddress: "::1").listensBeyondLoopback)
        XCTAssertTrue(LabOptions(listenAddress: "0.0.0.0").listensBeyondLoopback)
    }

    func testAServerKeyThatDoesNotFitItsCertificateFailsWithOpenSSLsReason() throws {
        let key = try KeyPair.generate(.ecP256)
        let other = try KeyPair.generate(.ecP256)
        let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))
        let certificate = try CertificateBuilder(
            subject: NameBuilder(commonName: "127.0.0.1"), publicKey: key, notBefore: now,
            notAfter: now.adding(seconds: 86_400)
        ).selfSign(key: key)
        // openssl's own server, given the same pair, refuses it with the reasons it queues.
        let dir = NSTemporaryDirectory() + "trustx-lab-key-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try PEM.encode(certificate.der).write(toFile: dir + "/cert.pem", atomically: true, encoding: .utf8)
        try other.privateKeyPEM().write(toFile: dir + "/key.pem", atomically: true, encoding: .utf8)
        let r = try Shell.run(
            "timeout 20 openssl s_server -accept 127.0.0.1:0 -naccept 1 -cert '\(dir)/cert.pem' -key '\(dir)/key.pem'")
        XCTAssertNotEqual(r.status, 0, r.output)
        // Each queue entry: PID:error:CODE:LIBRARY:FUNCTION:REASON:FILE:LINE:
        let reasons = r.output.split(separator: "\n").compactMap { line -> String? in
            let fields = line.split(separator: ":", omittingEmptySubsequences: false)
            return fields.count > 5 && fields[1] == "error" ? String(fields[5]) : nil
        }
        let reason = try XCTUnwrap(reasons.first, r.output)

        let configuration = LabTLSConfiguration(chain: [certificate], privateKeyPEM: other.privateKeyPEM())
        XCTAssertThrowsError(try ServerTLSContext(configuration)) { error in
            guard case LabServerError.openssl(let operation, let detail) = error else { return XCTFail("\(error)") }
            XCTAssertEqual(operation, "loading the server key")
            XCTAssertTrue(detail.contains(reason), "\(detail) does not say \(reason)")
        }
    }

    func testUnknownScenarioIsRefusedBeforeAnythingStarts() {
        XCTAssertThrowsError(try Lab.start(LabOptions(scenarios: ["good", "nope"]))) { error in
            XCTAssertEqual(error as? LabError, .unknownScenario("nope"))
        }
    }

    func testSilentClientsAreCutOffAndDoNotStarveOthers() throws {
        let lab = try Lab.start(LabOptions(scenarios: ["good"], workers: 2, connectionTimeout: 0.6))
        defer { lab.stop() }
        let port = try XCTUnwrap(lab.scenario("good")).port
        // As many silent clients as workers: they wait in the poll set, not on a worker.
        let silent = (0..<2).compactMap { _ in TestClient.connect(port: port) }
        defer { silent.forEach { close($0) } }
        let started = Date()
        let r = TestClient.run(port: port)
        XCTAssertTrue(r.served, r.failure)
        XCTAssertLessThan(Date().timeIntervalSince(started), 5)
        // They are let go at their read deadline.
        while lab.statistics.timedOut < 2 && Date().timeIntervalSince(started) < 5 { usleep(50_000) }
        XCTAssertGreaterThanOrEqual(lab.statistics.timedOut, 2)
    }

    func testFiftyIdleConnectionsDoNotDelayALegitimateClient() throws {
        // Idle and stalled clients never hold a worker; deadlines beyond the test's length keep
        // them all held while the legitimate client comes.
        let lab = try Lab.start(LabOptions(scenarios: ["good"], connectionTimeout: 60, readTimeout: 60))
        defer { lab.stop() }
        let port = try XCTUnwrap(lab.scenario("good")).port
        let idle = (0..<50).compactMap { _ in TestClient.connect(port: port) }
        defer { idle.forEach { close($0) } }
        XCTAssertEqual(idle.count, 50)
        // Slow clients too: each sends half a TLS record header and stops.
        let slow = (0..<50).compactMap { _ in TestClient.connect(port: port) }
        defer { slow.forEach { close($0) } }
        for fd in slow { TestClient.send(fd, "\u{16}\u{03}") }
        usleep(200_000)
        let r = TestClient.run(port: port)
        XCTAssertTrue(r.served, r.failure)
        XCTAssertEqual(lab.statistics.served, 1)
        // None of them was let go to make room: the 100 are still held.
        for fd in idle + slow {
            var byte: UInt8 = 0
            XCTAssertEqual(recv(fd, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)), -1)
        }
    }

    func testClientsThatCloseMidHandshakeOrSendGarbageDoNotHurtTheServer() throws {
        let lab = try RoomLab.shared()
        let servers = try ["good", "smtp-starttls"].map { try XCTUnwrap(lab.scenario($0)) }
        for s in servers {
            for junk in ["", "\u{16}\u{03}\u{01}\u{00}", "GET / HTTP/1.0\r\n\r\n", String(repeating: "x", count: 5000)]
            {
                guard let fd = TestClient.connect(port: s.port) else { return XCTFail("\(s.name) refused") }
                TestClient.send(fd, junk)
                close(fd)
            }
            // A handshake abandoned after the ClientHello.
            guard let fd = TestClient.connect(port: s.port) else { return XCTFail("\(s.name) refused") }
            close(fd)
        }
        for s in servers {
            let r = TestClient.run(port: s.port, smtp: s.scenario.serviceProtocol == .smtpStartTLS)
            XCTAssertTrue(r.served, "\(s.name): \(r.failure)")
        }
    }

    func testALabServerServesAnyChainGivenDirectly() throws {
        // The server alone, as the probe's tests might use it: a TLS 1.0-1.2 server with a
        // chain sent in reverse order.
        let rootKey = try KeyPair.generate(.ecP256)
        let start = Timestamp(secondsSinceEpoch: Int64(time(nil)) - 86_400)
        let end = start.adding(seconds: 300 * 86_400)
        var root = CertificateBuilder(
            subject: NameBuilder(commonName: "R"), publicKey: rootKey, notBefore: start, notAfter: end)
        root.basicConstraints = .init(isCA: true)
        let rootCert = try root.selfSign(key: rootKey)
        let leafKey = try KeyPair.generate(.rsa(bits: 1024))
        let leafCert = try CertificateBuilder(
            subject: NameBuilder(commonName: "L"), publicKey: leafKey, notBefore: start,
            notAfter: end
        ).sign(issuerKey: rootKey, issuer: rootCert)
        let server = try LabServer(endpoints: [
            LabEndpoint(
                name: "x",
                service: .https(
                    LabTLSConfiguration(
                        chain: [leafCert, rootCert], privateKeyPEM: leafKey.privateKeyPEM(),
                        minimumVersion: .tls1_0, maximumVersion: .tls1_2), page: "hello"))
        ])
        defer { server.stop() }
        let r = TestClient.run(port: try XCTUnwrap(server.port(of: "x")))
        XCTAssertTrue(r.served, r.failure)
        XCTAssertEqual(r.chain, [leafCert.der, rootCert.der])
        XCTAssertTrue(r.response.contains("\r\n\r\nhello\nProtocol: TLSv1.2\nCipher: "), r.response)
    }
}
