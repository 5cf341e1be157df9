import SuiteFixtures
import Testing
import TrustReport
import TrustSupport

/// The watch model: rounds of observations folded into changes, and a change as text and JSON.
@Suite(.serialized, .onTestThreads) final class WatchModelTests {
    let t0 = Timestamp(secondsSinceEpoch: 1_796_000_000)

    func summary(
        leaf: String = "aa11", key: String = "k1", chain: [String] = ["i1"], trusted: Bool = true,
        osstatus: Int32 = 0, urlError: Int? = nil
    ) -> WatchSummary {
        WatchSummary(
            trusted: trusted, osstatus: osstatus, osstatusName: trusted ? "errSecSuccess" : "errSecNotTrusted",
            urlError: urlError, leafSHA256: leaf, leafSPKISHA256: key, chainSHA256: [leaf] + chain,
            leafNotAfter: Timestamp(year: 2027, month: 1, day: 1))
    }

    func seen(_ address: String?, _ s: WatchSummary, at offset: Int64 = 0) -> WatchObservation {
        WatchObservation(target: "pool", address: address, time: t0.adding(seconds: offset), outcome: .evaluated(s))
    }

    func failed(_ address: String?, _ message: String, at offset: Int64 = 0) -> WatchObservation {
        WatchObservation(target: "pool", address: address, time: t0.adding(seconds: offset), outcome: .failed(message))
    }

    @Test func testFirstRoundReportsAFirstEvaluationPerAddress() {
        var h = WatchHistory(target: "pool")
        let changes = h.fold([seen("a", summary()), failed("b", "refused")], at: t0)
        #expect(changes.map(\.kind) == [.firstEvaluation, .failure])
        #expect(changes.map(\.address) == ["a", "b"])
        #expect((changes[0].old) == nil)
    }

    @Test func testAnUnchangedRoundReportsNothing() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary()), failed("b", "refused")], at: t0)
        #expect((h.fold([seen("a", summary(), at: 5), failed("b", "refused", at: 5)], at: t0)) == [])
        #expect(h.rounds == 2)
    }

    @Test func testANewLeafWithANewKeyIsToldApartFromOneWithTheSameKey() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary()), seen("b", summary())], at: t0)
        let changes = h.fold(
            [seen("a", summary(leaf: "bb22", key: "k1")), seen("b", summary(leaf: "cc33", key: "k2"))], at: t0)
        #expect(changes.map(\.kind) == [.newLeafSameKey, .newLeafNewKey])
        #expect((changes[1].old?.summary?.leafSHA256) == "aa11")
        #expect((changes[1].new?.summary?.leafSHA256) == "cc33")
    }

    @Test func testOtherIntermediatesBehindTheSameLeafAreANewChain() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary())], at: t0)
        #expect((h.fold([seen("a", summary(chain: []))], at: t0).map(\.kind)) == [.newChain])
    }

    @Test func testAVerdictThatFlipsIsReportedWithItsCodes() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary())], at: t0)
        let bad = summary(leaf: "dd44", key: "k9", trusted: false, osstatus: -67818, urlError: -1202)
        let changes = h.fold([seen("a", bad, at: 20)], at: t0.adding(seconds: 20))
        #expect(changes.map(\.kind) == [.newLeafNewKey, .verdictFlipped])
        #expect((changes[1].summaryText) == "verdict trusted -> not trusted (-67818 / -1202)")
        #expect(
            WatchChange.textLines(changes)
                == ([
                    "\(t0.adding(seconds: 20).rfc3339)  pool a  new leaf (new key) aa11 -> dd44; verdict trusted -> not trusted (-67818 / -1202)\n"
                ]))
    }

    @Test func testAddressesThatAppearAndGoAreReported() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary()), seen("b", summary())], at: t0)
        let changes = h.fold([seen("a", summary()), seen("c", summary())], at: t0.adding(seconds: 1))
        #expect(changes.map(\.kind) == [.addressAppeared, .addressGone])
        #expect(changes.map(\.address) == ["c", "b"])
        #expect(h.latest.map(\.address) == ["a", "c"])
    }

    @Test func testAFailureAndTheRecoveryAreReportedOnceAndTheRecoveryComparesWithTheLastEvaluation() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary())], at: t0)
        #expect((h.fold([failed("a", "connection refused")], at: t0).map(\.kind)) == [.failure])
        #expect((h.fold([failed("a", "connection refused")], at: t0)) == [])
        #expect((h.fold([failed("a", "timed out")], at: t0).map(\.kind)) == [.failure])
        let back = h.fold([seen("a", summary(leaf: "ee55", key: "k1"))], at: t0)
        #expect(back.map(\.kind) == [.recovered, .newLeafSameKey])
        #expect((back[1].old?.summary?.leafSHA256) == "aa11")
    }

    @Test func testANameThatStopsResolvingIsOneFailureAndItsAddressesAreNotGone() {
        var h = WatchHistory(target: "pool")
        h.fold([seen("a", summary()), seen("b", summary())], at: t0)
        let down = h.fold([failed(nil, "no such host")], at: t0)
        #expect(down.map(\.kind) == [.failure])
        #expect((down[0].address) == nil)
        let up = h.fold([seen("a", summary()), seen("b", summary())], at: t0)
        #expect(up.map(\.kind) == [.recovered])
        #expect((up[0].address) == nil)
    }

    @Test func testTheChangeListIsBoundedAndCountsWhatItLetGo() {
        var h = WatchHistory(target: "pool", changeLimit: 3)
        h.fold([seen("a", summary())], at: t0)
        for i in 0..<5 { h.fold([failed("a", "error \(i)")], at: t0) }
        #expect(h.changes.count == 3)
        #expect(h.droppedChanges == 3)
        #expect(h.changes.last?.new?.failureMessage == "error 4")
    }

    @Test func testARoundKeepsAtMostTheAddressLimit() {
        var h = WatchHistory(target: "pool")
        let round = (0..<(WatchHistory.maximumAddresses + 10)).map { seen("10.0.\($0 / 256).\($0 % 256)", summary()) }
        #expect((h.fold(round, at: t0).count) == WatchHistory.maximumAddresses)
        #expect(h.latest.count == WatchHistory.maximumAddresses)
    }

    @Test func testWatchAddressesPastThe256thOfAConnectToListAreWatched() {
        // A --connect-to list may bring 1,000 addresses (the checks one run may make); the
        // last of them changing in round 1 is a change, as the first's would be.
        var h = WatchHistory(target: "pool")
        let addresses = (0..<1000).map { "10.0.\($0 / 256).\($0 % 256)" }
        h.fold(addresses.map { seen($0, summary()) }, at: t0)
        let next = addresses.enumerated().map { i, a in i == 999 ? failed(a, "refused") : seen(a, summary()) }
        let changes = h.fold(next, at: t0)
        #expect(changes.map(\.address) == ["10.0.3.231"])
        #expect(h.latest.count == 1000)
    }

    @Test func testAChangeLineIsOneLineOfJSONWithItsOldAndNewValues() {
        let change = WatchChange(
            time: t0, target: "pool\n\u{1B}[2J", address: "a", kind: .newLeafNewKey,
            old: .evaluated(summary()), new: .failed("x\ny"))
        let line = change.jsonLine
        #expect(line.hasSuffix("}\n"))
        #expect((line.filter { $0 == "\n" }.count) == 1)
        #expect(line.hasPrefix("{\"event\":\"change\",\"time\":\"\(t0.rfc3339)\",\"target\":\"pool\\n\\u001b[2J\""))
        #expect(line.contains("\"kind\":\"new-leaf-new-key\""))
        #expect(line.contains("\"old\":{\"result\":\"evaluated\",\"trusted\":true"))
        #expect(line.contains("\"chainSHA256\":[\"aa11\",\"i1\"]"))
        #expect(line.contains("\"new\":{\"result\":\"failed\",\"error\":\"x\\ny\"}"))
    }

    @Test func testServerTextInAChangeLineIsSanitised() {
        let change = WatchChange(
            time: t0, target: "pool", address: "a", kind: .failure, old: nil, new: .failed("bad\u{1B}]0;owned\u{07}"))
        let line = WatchChange.textLines([change])[0]
        #expect(!(line.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{07}" }))
        #expect((line.filter { $0 == "\n" }.count) == 1)
    }
}
