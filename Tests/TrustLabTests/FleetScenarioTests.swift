import Foundation
import SuiteFixtures
import Testing
import TrustCore
import TrustSupport
import TrustX509

@testable import TrustLab

/// The staging-fleet lessons over real TLS, one lab serving the group with a one-second
/// rotation: the pool's three nodes on three loopback addresses at one port, each judged by the
/// engine against the rule its node breaks, and the rotating server's switch.
@Suite(.serialized, .onTestThreads, .fixture(setUp: fleetScenarioTestsSetUp, tearDown: fleetScenarioTestsTearDown))
final class FleetScenarioTests {
    nonisolated(unsafe) static var shared: Lab?
    static let now = Timestamp(secondsSinceEpoch: Int64(time(nil)))

    // Security's SecBase.h: errSecCertificateExpired, errSecCreateChainFailed; URLSession reports
    // NSURLErrorCancelled (-999) when the app's delegate, which set the anchor, refuses.
    static let expired: Int32 = -67818
    static let createChainFailed: Int32 = -25318
    static let cancelled = -999

    static func suiteSetUp() {
        var options = LabOptions(now: now)
        options.groups = [LabScenarioGroup.fleet.id]
        options.rotateSeconds = 1
        shared = try? Lab.start(options.patient)
    }

    static func suiteTearDown() {
        shared?.stop()
        shared = nil
    }

    func scenario(_ name: String) throws -> (Lab, RunningScenario) {
        let lab = try #require(Self.shared, "the lab did not start")
        return (lab, try #require(lab.scenario(name)))
    }

    /// The scenario's default settings: SSL for its host, its anchor only, the lab's time.
    func settings(_ lab: Lab, _ s: RunningScenario, pins: [String] = []) -> TrustSettings {
        TrustSettings(
            anchors: [lab.anchor(s.scenario.anchor).certificate], policy: .ssl(host: s.host),
            pins: PinSet(digests: pins.compactMap(PinSet.parse)), time: Self.now)
    }

    func assertVerdict(
        _ verdict: Verdict, trusted: Bool, osstatus: Int32, urlError: Int?, _ what: String,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(verdict.trusted == trusted, "\(what): \(verdict.summary)", sourceLocation: sourceLocation)
        #expect(verdict.osstatus == osstatus, "\(what): \(verdict.summary)", sourceLocation: sourceLocation)
        #expect(verdict.urlError == urlError, "\(what): \(verdict.summary)", sourceLocation: sourceLocation)
    }

    @Test func testThePoolsNodesAnswerOnThreeLoopbackAddressesAtOnePortEachWithItsOwnVerdict() throws {
        let (lab, pool) = try scenario("pool")
        #expect(pool.host == "pool.trustx.test")
        #expect(pool.nodes.map(\.address) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"])
        #expect(Set(pool.nodes.map(\.port)) == [pool.port])
        #expect(pool.connectTo == (pool.nodes.map { "\($0.address):\(pool.port)" }.joined(separator: ",")))
        let evaluator = Evaluator()
        var leaves: [[UInt8]] = []
        for node in pool.nodes {
            let seen = TestClient.run(port: node.port, address: node.address, sni: pool.host)
            #expect(seen.served, "node \(node.number): \(seen.failure)")
            // The page names the node that answered: three servers, not one.
            #expect(seen.response.contains("node \(node.number) of 3 (\(node.node.label))"), "\(seen.response)")
            let chain = try seen.chain.map { try Certificate(der: $0) }
            #expect(chain.map(\.der) == node.served.map(\.der), "node \(node.number) sends its own chain")
            leaves.append(chain[0].der)
            let verdict = try #require(evaluator.evaluate(chain: chain, settings: settings(lab, pool))).verdict
            switch node.number {
            case 1:
                assertVerdict(verdict, trusted: true, osstatus: 0, urlError: nil, "the healthy node")
            case 2:
                // Apple's TemporalValidity: past notAfter is errSecCertificateExpired.
                #expect((chain[0].notAfter) < Self.now)
                assertVerdict(
                    verdict, trusted: false, osstatus: Self.expired, urlError: Self.cancelled, "the expired node")
            default:
                // Apple's MissingIntermediate: the issuer is neither sent nor an anchor, and the
                // leaf names no AIA URL to fetch it from.
                #expect(chain.count == 1)
                #expect((chain[0].issuer) != (lab.anchor(.libraryTestCA).certificate.subject))
                #expect((chain[0].authorityInfoAccess) == nil)
                assertVerdict(
                    verdict, trusted: false, osstatus: Self.createChainFailed, urlError: Self.cancelled,
                    "the node without its intermediate")
            }
            // The catalogue states the same for the node.
            #expect(verdict.trusted == node.expectation.trusted, "node \(node.number)")
            #expect(verdict.osstatus == node.expectation.osstatus, "node \(node.number)")
            #expect(verdict.urlError == node.expectation.urlError, "node \(node.number)")
        }
        #expect((Set(leaves).count) == 3, "three different leaves")
        // The expired node kept last year's certificate of the same key; node 3's key is its own.
        let keys = pool.nodes.map { $0.served[0].spkiSHA256 }
        #expect(keys[1] == keys[0])
        #expect(keys[2] != keys[0])
    }

    @Test func testThePoolExpectsWhatItsWorstNodeGives() throws {
        let (_, pool) = try scenario("pool")
        // One failing node fails the pool, and a failed connection outranks a rejected chain.
        #expect(!pool.expectation.trusted)
        #expect(pool.expectation == (pool.nodes[1].expectation))
        let handshake = LabExpectation(trusted: false, osstatus: nil, urlError: -1200)
        #expect((LabExpectation.worst([.trusted, .rejectedByDelegate(-67818), handshake])) == handshake)
        #expect((LabExpectation.worst([.trusted, .trusted])) == .trusted)
    }

    @Test func testTheRotatingServerServesTheOtherLeafKeyAfterTheSwitch() throws {
        let (lab, s) = try scenario("rotating")
        let rotation = try #require(s.rotation)
        #expect(rotation.period == 1)
        #expect(rotation.chains.count == 2)
        let keys = rotation.chains.map { $0[0].spkiSHA256 }
        #expect(keys[0] != keys[1], "the two leaves have different keys")
        #expect(lab.pins[.rotatingFirstLeaf] == ("sha256//" + Base64.encode(keys[0])))

        func leaf() throws -> (key: [UInt8], before: Int64, after: Int64) {
            let before = Int64(time(nil))
            let seen = TestClient.run(port: s.port)
            let after = Int64(time(nil))
            #expect(seen.handshake, "\(seen.failure)")
            return (try Certificate(der: try #require(seen.chain.first)).spkiSHA256, before, after)
        }
        let first = try leaf()
        // A handshake within one second gets the leaf that second's parity names.
        if first.before == first.after {
            #expect(first.key == (keys[rotation.index(at: first.before)]))
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
        #expect(next.key != first.key, "no other leaf within 10 s")
        #expect((Set([first.key, next.key])) == Set(keys))
    }

    @Test func testALeafPinHoldsOnTheFirstLeafAndBreaksOnTheSecondWhileACAPinSurvives() throws {
        let (lab, s) = try scenario("rotating")
        let rotation = try #require(s.rotation)
        let evaluator = Evaluator()
        let leafPin = try #require(lab.pins[.rotatingFirstLeaf])
        let caPin = try #require(lab.pins[.libraryTestCA])
        for (i, chain) in rotation.chains.enumerated() {
            let plain = try #require(evaluator.evaluate(chain: chain, settings: settings(lab, s))).verdict
            assertVerdict(plain, trusted: true, osstatus: 0, urlError: nil, "leaf \(i + 1)")
            let pinned = try #require(evaluator.evaluate(chain: chain, settings: settings(lab, s, pins: [leafPin])))
                .verdict
            // Pins are checked after evaluation: with the other key it passes and the delegate cancels.
            if i == 0 {
                assertVerdict(pinned, trusted: true, osstatus: 0, urlError: nil, "leaf 1 pinned")
            } else {
                assertVerdict(pinned, trusted: false, osstatus: 0, urlError: Self.cancelled, "leaf 2 pinned")
            }
            let backed = try #require(
                evaluator.evaluate(chain: chain, settings: settings(lab, s, pins: [leafPin, caPin]))
            ).verdict
            assertVerdict(backed, trusted: true, osstatus: 0, urlError: nil, "leaf \(i + 1) with the CA pin")
        }
        // The catalogue's variations say the same, each under the leaf it names.
        let variations = s.scenario.variations
        #expect(variations.map(\.leaf) == [1, 2, nil])
        #expect(
            variations.map(\.expectation)
                == ([.trusted, LabExpectation(trusted: false, osstatus: 0, urlError: -999), .trusted]))
    }

    /// The listing's expectations hold whenever they are checked: each variation (and the
    /// scenario itself) evaluated on each leaf's chain gives what the catalogue states for it
    /// while that leaf is served; a variation for one leaf only says nothing about the other. At
    /// d2f517e the leaf pin listed -999 alone, false while leaf 1 is served.
    @Test func testTheRotatingListingsExpectationsHoldUnderWhicheverLeafIsServed() throws {
        let (lab, s) = try scenario("rotating")
        let rotation = try #require(s.rotation)
        let evaluator = Evaluator()
        var stated = 0
        for (i, chain) in rotation.chains.enumerated() {
            let plain = try #require(evaluator.evaluate(chain: chain, settings: settings(lab, s))).verdict
            assertVerdict(
                plain, trusted: s.expectation.trusted, osstatus: s.expectation.osstatus ?? -1,
                urlError: s.expectation.urlError, "leaf \(i + 1)")
            // Each leaf has a statement about every pin the lesson tries.
            #expect(Set(s.scenario.variations.filter { $0.holds(whileServing: i + 1) }.map(\.settings)).count == 2)
            for v in s.scenario.variations where v.holds(whileServing: i + 1) {
                let pins = v.options(lab.argumentValues).enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
                let verdict = try #require(evaluator.evaluate(chain: chain, settings: settings(lab, s, pins: pins)))
                    .verdict
                assertVerdict(
                    verdict, trusted: v.expectation.trusted, osstatus: v.expectation.osstatus ?? -1,
                    urlError: v.expectation.urlError, "leaf \(i + 1): \(v.why)")
                stated += 1
            }
        }
        #expect(stated == 4)
        // The table states each leaf's row with what each pin gives then.
        let table = lab.table()
        #expect(
            table.contains(
                "--pin rotating-first-leaf: trusted; --pin rotating-first-leaf --pin library-test-ca: trusted"),
            "\(table)")
        #expect(table.contains("--pin rotating-first-leaf: 0, URLError -999;"), "\(table)")
        let object = try #require(JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        let entry = try #require(
            (object["scenarios"] as? [[String: Any]])?.first { $0["name"] as? String == "rotating" })
        #expect(((entry["variations"] as? [[String: Any]])?.map { $0["leaf"] as? Int }) == [1, 2, nil])
    }

    @Test func testTheJSONAndTableShowEveryNodeAndTheCommandThatChecksThem() throws {
        let (lab, pool) = try scenario("pool")
        let object = try #require(JSONSerialization.jsonObject(with: Data(lab.json().utf8)) as? [String: Any])
        let scenarios = try #require(object["scenarios"] as? [[String: Any]])
        let entry = try #require(scenarios.first { $0["name"] as? String == "pool" })
        let nodes = try #require(entry["nodes"] as? [[String: Any]])
        #expect((nodes.compactMap { $0["address"] as? String }) == ["127.0.0.1", "127.0.0.2", "127.0.0.3"])
        #expect((nodes.compactMap { ($0["expect"] as? [String: Any])?["osstatus"] as? Int }) == [0, -67818, -25318])
        let list = "127.0.0.1:\(pool.port),127.0.0.2:\(pool.port),127.0.0.3:\(pool.port)"
        #expect(
            (entry["check"] as? [String])
                == (["https://pool.trustx.test:\(pool.port)/", "--connect-to", list, "--anchor", pool.anchorPath]))
        let rotating = try #require(scenarios.first { $0["name"] as? String == "rotating" })
        #expect(((rotating["rotation"] as? [String: Any])?["seconds"] as? Int) == 1)

        let table = lab.table()
        #expect(table.contains("https://pool.trustx.test:\(pool.port)/ --connect-to \(list)"), "\(table)")
        for node in pool.nodes {
            #expect(table.contains("  node \(node.number)  \(node.connectTo)"), "\(table)")
        }
    }

    @Test func testEveryScenarioPortIsTheBasePlusAnOffsetNoOtherServerUses() {
        let offsets = LabScenario.all.flatMap(\.portOffsets) + [LabScenario.aiaPortOffset]
        #expect((Set(offsets).count) == offsets.count)
        let fleet = LabScenario.all.filter { $0.group == .fleet }
        #expect(fleet.map(\.name) == ["pool", "rotating"])
        #expect(fleet.flatMap(\.portOffsets).allSatisfy { (220...229).contains($0) })
        #expect(LabScenario.highestPortOffset >= 223)
    }
}

/// The pool where learners cannot be given three addresses: any listen address but 127.0.0.1
/// stands for a classroom's, and the nodes take three ports of it.
@Suite(.serialized, .onTestThreads, .fixture(setUp: fleetClassroomTestsSetUp, tearDown: fleetClassroomTestsTearDown))
final class FleetClassroomTests {
    nonisolated(unsafe) static var shared: Lab?

    static func suiteSetUp() {
        shared = try? Lab.start(LabOptions(scenarios: ["pool"], listenAddress: "127.0.0.5").patient)
    }

    static func suiteTearDown() {
        shared?.stop()
        shared = nil
    }

    @Test func testAwayFromLoopbackThePoolsNodesShareTheAddressOnPortsOfTheirOwn() throws {
        let lab = try #require(Self.shared, "the lab did not start")
        let pool = try #require(lab.scenario("pool"))
        #expect(pool.nodes.map(\.address) == ["127.0.0.5", "127.0.0.5", "127.0.0.5"])
        #expect((Set(pool.nodes.map(\.port)).count) == 3)
        #expect((pool.nodes[0].port) == pool.port)
        #expect(pool.connectTo == (pool.nodes.map { "127.0.0.5:\($0.port)" }.joined(separator: ",")))
        for node in pool.nodes {
            let seen = TestClient.run(port: node.port, address: "127.0.0.5", sni: pool.host)
            #expect(seen.response.contains("node \(node.number) of 3"), "\(seen.response) \(seen.failure)")
        }
    }
}

/// FleetScenarioTests's shared set-up, outside the type so its suite attribute can name it.
private func fleetScenarioTestsSetUp() { FleetScenarioTests.suiteSetUp() }

/// FleetScenarioTests's shared tear-down, outside the type so its suite attribute can name it.
private func fleetScenarioTestsTearDown() { FleetScenarioTests.suiteTearDown() }

/// FleetClassroomTests's shared set-up, outside the type so its suite attribute can name it.
private func fleetClassroomTestsSetUp() { FleetClassroomTests.suiteSetUp() }

/// FleetClassroomTests's shared tear-down, outside the type so its suite attribute can name it.
private func fleetClassroomTestsTearDown() { FleetClassroomTests.suiteTearDown() }
