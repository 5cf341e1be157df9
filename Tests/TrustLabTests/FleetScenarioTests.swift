import Foundation
import TrustCore
import TrustSupport
import TrustX509
import XCTest

@testable import TrustLab

/// The staging-fleet lessons over real TLS, one lab serving the group with a one-second
/// rotation: the pool's three nodes on three loopback addresses at one port, each judged by the
/// engine against the rule its node breaks, and the rotating server's switch.
final class FleetScenarioTests: XCTestCase {
    nonisolated(unsafe) static var shared: Lab?
    static let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))

    // Security's SecBase.h: errSecCertificateExpired, errSecCreateChainFailed; URLSession reports
    // NSURLErrorCancelled (-999) when the app's delegate, which set the anchor, refuses.
    static let expired: Int32 = -67818
    static let createChainFailed: Int32 = -25318
    static let cancelled = -999

    override class func setUp() {
        super.setUp()
        var options = LabOptions(now: now)
        options.groups = [LabScenarioGroup.fleet.id]
        options.rotateSeconds = 1
        shared = try? Lab.start(options)
    }

    override class func tearDown() {
        shared?.stop()
        shared = nil
        super.tearDown()
    }

    func scenario(_ name: String) throws -> (Lab, RunningScenario) {
        let lab = try XCTUnwrap(Self.shared, "the lab did not start")
        return (lab, try XCTUnwrap(lab.scenario(name)))
    }

    /// The scenario's default settings: SSL for its host, its anchor only, the lab's time.
    func settings(_ lab: Lab, _ s: RunningScenario, pins: [String] = []) -> TrustSettings {
        TrustSettings(
            anchors: [lab.anchor(s.scenario.anchor).certificate], policy: .ssl(host: s.host),
            pins: PinSet(digests: pins.compactMap(PinSet.parse)), time: Self.now)
    }

    func assertVerdict(
        _ verdict: Verdict, trusted: Bool, osstatus: Int32, urlError: Int?, _ what: String,
        file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(verdict.trusted, trusted, "\(what): \(verdict.summary)", file: file, line: line)
        XCTAssertEqual(verdict.osstatus, osstatus, "\(what): \(verdict.summary)", file: file, line: line)
        XCTAssertEqual(verdict.urlError, urlError, "\(what): \(verdict.summary)", file: file, line: line)
    }

    func testThePoolsNodesAnswerOnThreeLoopbackAddressesAtOnePortEachWithItsOwnVerdict() throws {
        let (lab, pool) = try scenario("pool")
        XCTAssertEqual(pool.host, "pool.trustx.test")
        XCTAssertEqual(pool.nodes.map(\.address), ["127.0.0.1", "127.0.0.2", "127.0.0.3"])
        XCTAssertEqual(Set(pool.nodes.map(\.port)), [pool.port])
        XCTAssertEqual(pool.connectTo, pool.nodes.map { "\($0.address):\(pool.port)" }.joined(separator: ","))
        let evaluator = Evaluator()
        var leaves: [[UInt8]] = []
        for node in pool.nodes {
            let seen = TestClient.run(port: node.port, address: node.address, sni: pool.host)
            XCTAssertTrue(seen.served, "node \(node.number): \(seen.failure)")
            // The page names the node that answered: three servers, not one.
            XCTAssertTrue(
                seen.response.contains("node \(node.number) of 3 (\(node.node.label))"), "\(seen.response)")
            let chain = try seen.chain.map { try Certificate(der: $0) }
            XCTAssertEqual(chain.map(\.der), node.served.map(\.der), "node \(node.number) sends its own chain")
            leaves.append(chain[0].der)
            let verdict = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: settings(lab, pool))).verdict
            switch node.number {
            case 1:
                assertVerdict(verdict, trusted: true, osstatus: 0, urlError: nil, "the healthy node")
            case 2:
                // Apple's TemporalValidity: past notAfter is errSecCertificateExpired.
                XCTAssertLessThan(chain[0].notAfter, Self.now)
                assertVerdict(
                    verdict, trusted: false, osstatus: Self.expired, urlError: Self.cancelled, "the expired node")
            default:
                // Apple's MissingIntermediate: the issuer is neither sent nor an anchor, and the
                // leaf names no AIA URL to fetch it from.
                XCTAssertEqual(chain.count, 1)
                XCTAssertNotEqual(chain[0].issuer, lab.anchor(.libraryTestCA).certificate.subject)
                XCTAssertNil(chain[0].authorityInfoAccess)
                assertVerdict(
                    verdict, trusted: false, osstatus: Self.createChainFailed, urlError: Self.cancelled,
                    "the node without its intermediate")
            }
            // The catalogue states the same for the node.
            XCTAssertEqual(verdict.trusted, node.expectation.trusted, "node \(node.number)")
            XCTAssertEqual(verdict.osstatus, node.expectation.osstatus, "node \(node.number)")
            XCTAssertEqual(verdict.urlError, node.expectation.urlError, "node \(node.number)")
        }
        XCTAssertEqual(Set(leaves).count, 3, "three different leaves")
        // The expired node kept last year's certificate of the same key; node 3's key is its own.
        let keys = pool.nodes.map { $0.served[0].spkiSHA256 }
        XCTAssertEqual(keys[1], keys[0])
        XCTAssertNotEqual(keys[2], keys[0])
    }

    func testThePoolExpectsWhatItsWorstNodeGives() throws {
        let (_, pool) = try scenario("pool")
        // One failing node fails the pool, and a failed connection outranks a rejected chain.
        XCTAssertFalse(pool.expectation.trusted)
        XCTAssertEqual(pool.expectation, pool.nodes[1].expectation)
        let handshake = LabExpectation(trusted: false, osstatus: nil, urlError: -1200)
        XCTAssertEqual(LabExpectation.worst([.trusted, .rejectedByDelegate(-67818), handshake]), handshake)
        XCTAssertEqual(LabExpectation.worst([.trusted, .trusted]), .trusted)
    }

    func testTheRotatingServerServesTheOtherLeafKeyAfterTheSwitch() throws {
        let (lab, s) = try scenario("rotating")
        let rotation = try XCTUnwrap(s.rotation)
        XCTAssertEqual(rotation.period, 1)
        XCTAssertEqual(rotation.chains.count, 2)
        let keys = rotation.chains.map { $0[0].spkiSHA256 }
        XCTAssertNotEqual(keys[0], keys[1], "the two leaves have different keys")
        XCTAssertEqual(lab.pins[.rotatingFirstLeaf], "sha256//" + Base64.encode(keys[0]))

        func leaf() throws -> (key: [UInt8], before: Int64, after: Int64) {
            let before = Int64(time(nil))
            let seen = TestClient.run(port: s.port)
            let after = Int64(time(nil))
            XCTAssertTrue(seen.handshake, seen.failure)
            return (try Certificate(der: try XCTUnwrap(seen.chain.first)).spkiSHA256, before, after)
        }
        let first = try leaf()
        // A handshake within one second gets the leaf that second's parity names.
        if first.before == first.after {
            XCTAssertEqual(first.key, keys[rotation.index(at: first.before)])
        }
        // Asked again just after each turn of the clock's second (the switch is at most one
        // away), with a generous guard.
        func sleepToTheNextSecond() {
            var now = timeval()
            gettimeofday(&now, nil)
            usleep(useconds_t(1_000_000 - Int(now.tv_usec) + 20_000))
        }
        let guardTime = Date().addingTimeInterval(10)
        sleepToTheNextSecond()
        var next = try leaf()
        while next.key == first.key && Date() < guardTime {
            sleepToTheNextSecond()
            next = try leaf()
        }
        XCTAssertNotEqual(next.key, first.key, "no other leaf within 10 s")
        XCTAssertEqual(Set([first.key, next.key]), Set(keys))
    }

    func testALeafPinHoldsOnTheFirstLeafAndBreaksOnTheSecondWhileACAPinSurvives() throws {
        let (lab, s) = try scenario("rotating")
        let rotation = try XCTUnwrap(s.rotation)
        let evaluator = Evaluator()
        let leafPin = try XCTUnwrap(lab.pins[.rotatingFirstLeaf])
        let caPin = try XCTUnwrap(lab.pins[.libraryTestCA])
        for (i, chain) in rotation.chains.enumerated() {
            let plain = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: settings(lab, s))).verdict
            assertVerdict(plain, trusted: true, osstatus: 0, urlError: nil, "leaf \(i + 1)")
            let pinned = try XCTUnwrap(evaluator.evaluate(chain: chain, settings: settings(lab, s, pins: [leafPin])))
                .verdict
            // Pins are checked after evaluation: with the other key it passes and the delegate cancels.
            if i == 0 {
                assertVerdict(pinned, trusted: true, osstatus: 0, urlError: nil, "leaf 1 pinned")
            } else {
                assertVerdict(pinned, trusted: false, osstatus: 0, urlError: Self.cancelled, "leaf 2 pinned")
            }
            let backed = try XCTUnwrap(
                evaluator.evaluate(chain: chain, settings: settings(lab, s, pins: [leafPin, caPin]))
            ).verdict
            assertVerdict(backed, trusted: true, osstatus: 0, urlError: nil, "leaf \(i + 1) with the CA pin")
        }
        // The catalogue's variations say the same: the leaf pin as it is after the switch.
        let variations = s.scenario.variations
        XCTAssertEqual(
            variations.map(\.expectation), [LabExpectation(trusted: false, osstatus: 0, urlError: -999), .trusted])
    }

    func testTheJSONAndTableShowEveryNodeAndTheCommandThatChecksThem() throws {
        let (lab, pool) = try scenario("pool")
        let object = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        let scenarios = try XCTUnwrap(object["scenarios"] as? [[String: Any]])
        let entry = try XCTUnwrap(scenarios.first { $0["name"] as? String == "pool" })
        let nodes = try XCTUnwrap(entry["nodes"] as? [[String: Any]])
        XCTAssertEqual(nodes.compactMap { $0["address"] as? String }, ["127.0.0.1", "127.0.0.2", "127.0.0.3"])
        XCTAssertEqual(
            nodes.compactMap { ($0["expect"] as? [String: Any])?["osstatus"] as? Int }, [0, -67818, -25318])
        let list = "127.0.0.1:\(pool.port),127.0.0.2:\(pool.port),127.0.0.3:\(pool.port)"
        XCTAssertEqual(
            entry["check"] as? [String],
            ["https://pool.trustx.test:\(pool.port)/", "--connect-to", list, "--anchor", pool.anchorPath])
        let rotating = try XCTUnwrap(scenarios.first { $0["name"] as? String == "rotating" })
        XCTAssertEqual((rotating["rotation"] as? [String: Any])?["seconds"] as? Int, 1)

        let table = lab.table()
        XCTAssertTrue(table.contains("https://pool.trustx.test:\(pool.port)/ --connect-to \(list)"), table)
        for node in pool.nodes {
            XCTAssertTrue(table.contains("  node \(node.number)  \(node.connectTo)"), table)
        }
    }

    func testEveryScenarioPortIsTheBasePlusAnOffsetNoOtherServerUses() {
        let offsets = LabScenario.all.flatMap(\.portOffsets) + [LabScenario.aiaPortOffset]
        XCTAssertEqual(Set(offsets).count, offsets.count)
        let fleet = LabScenario.all.filter { $0.group == .fleet }
        XCTAssertEqual(fleet.map(\.name), ["pool", "rotating"])
        XCTAssertTrue(fleet.flatMap(\.portOffsets).allSatisfy { (220...229).contains($0) })
        XCTAssertGreaterThanOrEqual(LabScenario.highestPortOffset, 223)
    }
}

/// The pool where learners cannot be given three addresses: any listen address but 127.0.0.1
/// stands for a classroom's, and the nodes take three ports of it.
final class FleetClassroomTests: XCTestCase {
    nonisolated(unsafe) static var shared: Lab?

    override class func setUp() {
        super.setUp()
        shared = try? Lab.start(LabOptions(scenarios: ["pool"], listenAddress: "127.0.0.5"))
    }

    override class func tearDown() {
        shared?.stop()
        shared = nil
        super.tearDown()
    }

    func testAwayFromLoopbackThePoolsNodesShareTheAddressOnPortsOfTheirOwn() throws {
        let lab = try XCTUnwrap(Self.shared, "the lab did not start")
        let pool = try XCTUnwrap(lab.scenario("pool"))
        XCTAssertEqual(pool.nodes.map(\.address), ["127.0.0.5", "127.0.0.5", "127.0.0.5"])
        XCTAssertEqual(Set(pool.nodes.map(\.port)).count, 3)
        XCTAssertEqual(pool.nodes[0].port, pool.port)
        XCTAssertEqual(pool.connectTo, pool.nodes.map { "127.0.0.5:\($0.port)" }.joined(separator: ","))
        for node in pool.nodes {
            let seen = TestClient.run(port: node.port, address: "127.0.0.5", sni: pool.host)
            XCTAssertTrue(seen.response.contains("node \(node.number) of 3"), "\(seen.response) \(seen.failure)")
        }
    }
}
