import Foundation
import LabServers
import Testing

@testable import TrustLab

/// The catalogue as one value per scenario: ports assigned in declaration order and equal to
/// the layout docs/lab.md gives users, a section in docs/lab.md stating each scenario's codes,
/// and no source outside a scenario's own file choosing anything by its name.
@Suite struct LabCatalogueTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let labDoc = (try? String(contentsOf: root.appendingPathComponent("docs/lab.md"), encoding: .utf8)) ?? ""

    /// The offsets docs/lab.md prints: the scenario table's `| N | name |` rows, the badssl.com,
    /// inspection and CT tables' `name (N)` cells, and the fleet's `**name** (offset N)`.
    static func documentedOffsets() -> [String: Int] {
        var offsets: [String: Int] = [:]
        for line in labDoc.split(separator: "\n").map(String.init) where line.hasPrefix("|") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            if cells.count > 1, let n = Int(cells[0]) { offsets[cells[1]] = n }
            for cell in cells {
                guard cell.hasSuffix(")"), let open = cell.lastIndex(of: "(") else { continue }
                let name = cell[..<open].trimmingCharacters(in: .whitespaces)
                if let n = Int(cell[cell.index(after: open)..<cell.index(before: cell.endIndex)]), !name.contains(" ") {
                    offsets[name] = n
                }
            }
        }
        for scenario in LabScenario.all {
            let marker = "**\(scenario.name)** (offset "
            guard let range = labDoc.range(of: marker) else { continue }
            offsets[scenario.name] = Int(labDoc[range.upperBound...].prefix { $0.isNumber })
        }
        return offsets
    }

    /// The badssl.com TLS servers, whose table gives only the range (base + 150 to 174): the
    /// offsets their entries carried when each was written by hand.
    static let tlsOffsets: [String: Int] = [
        "cbc": 150, "mozilla-modern": 151, "mozilla-intermediate": 152, "mozilla-old": 153, "null": 154,
        "3des": 155, "rc4": 156, "rc4-md5": 157, "dh480": 160, "dh512": 161, "dh1024": 162, "dh2048": 163,
        "dh-composite": 164, "dh-small-subgroup": 165, "static-rsa": 166, "tls-v1-0": 170, "tls-v1-1": 171,
        "tls-v1-2": 172, "ssl-v3": 173, "ssl-v2": 174,
    ]

    /// The README's one figure about the lab is the catalogue's size.
    @Test func testTheReadmeCountsTheCatalogue() throws {
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("the built-in lab: \(LabScenario.all.count) scenarios"), "README.md")
    }

    @Test func testEveryScenarioKeepsThePortHandoutsPrint() {
        let documented = Self.documentedOffsets().merging(Self.tlsOffsets) { doc, _ in doc }
        for scenario in LabScenario.all {
            #expect(documented[scenario.name] == scenario.portOffset, "\(scenario.name)")
        }
        #expect(LabScenario.aiaPortOffset == 99)
        #expect(Self.labDoc.contains("the AIA server is at N + 99"))
    }

    @Test func testPortsFollowDeclarationOrderWithinEachGroupAndNeverCollide() {
        var seen: Set<Int> = [LabScenario.aiaPortOffset]
        for group in LabScenario.groups {
            var next = group.firstPortOffset
            for scenario in LabScenario.all where scenario.group == group {
                #expect(scenario.portOffset == next, "\(scenario.name)")
                next += scenario.portOffsets.count
                for offset in scenario.portOffsets {
                    #expect(seen.insert(offset).inserted, "\(scenario.name) \(offset)")
                }
            }
        }
    }

    /// The part of docs/lab.md about `name`: its `### name` section, its `**name**` paragraph, or
    /// its table row.
    static func section(of name: String) -> String? {
        let lines = labDoc.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if let start = lines.firstIndex(of: "### \(name)") {
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("#") } ?? lines.count
            return lines[start..<end].joined(separator: "\n")
        }
        if let start = lines.firstIndex(where: { $0.hasPrefix("**\(name)**") }) {
            let end = lines[(start + 1)...].firstIndex { $0.hasPrefix("**") || $0.hasPrefix("#") } ?? lines.count
            return lines[start..<end].joined(separator: "\n")
        }
        return lines.first { line in
            line.hasPrefix("|") && (line.contains("| \(name) |") || line.contains("| \(name) ("))
        }
    }

    /// Whether `text` holds `code` as a number of its own (not part of a longer one).
    static func states(_ text: String, _ code: Int) -> Bool {
        let digits = Array(text)
        let needle = Array(String(code))
        guard needle.count <= digits.count else { return false }
        for i in 0...(digits.count - needle.count) where Array(digits[i..<(i + needle.count)]) == needle {
            let before = i == 0 ? " " : digits[i - 1]
            let after = i + needle.count == digits.count ? " " : digits[i + needle.count]
            if !before.isNumber && !(code >= 0 && before == "-") && !after.isNumber { return true }
        }
        return false
    }

    @Test func testEveryScenarioHasASectionInDocsLabStatingItsCodes() throws {
        #expect(!Self.labDoc.isEmpty)
        for scenario in LabScenario.all {
            let section = try #require(
                Self.section(of: scenario.name), "docs/lab.md has no section for \(scenario.name)")
            let expected = scenario.expectation
            if expected.trusted {
                let trusted = section.replacingOccurrences(of: "not trusted", with: "").contains("trusted")
                #expect(trusted, "\(scenario.name): \(section)")
                continue
            }
            if let status = expected.osstatus {
                #expect(Self.states(section, Int(status)), "\(scenario.name) OSStatus \(status): \(section)")
            }
            if let error = expected.urlError {
                #expect(Self.states(section, error), "\(scenario.name) URLError \(error): \(section)")
            }
        }
    }

    @Test func testTheCodeSearchFindsACodeOnlyAsANumberOfItsOwn() {
        #expect(Self.states("not trusted, -67602 errSecHostNameMismatch, -999", -999))
        #expect(!Self.states("not trusted, -9999", -999))
        #expect(!Self.states("-67602", -6760))
        #expect(Self.states("the chain evaluates (0), -1206", 0))
        #expect(!Self.states("-1206", 0))
    }

    /// Sources that may spell a scenario's name for another reason than choosing by it: an
    /// anchor file named after its root, a DH group named as badssl.com names it, the key
    /// cache's file names (a cached key keeps its first owner's name), and JSON's `null`.
    static let otherMeanings: [String: Set<String>] = [
        "Sources/TrustLab/LabAnchor.swift": [
            "rogue-ca", "self-signed", "superfish", "edellroot", "dsdtestprovider", "preact-cli", "webpack-dev-server",
        ],
        "Sources/LabServers/LabDHParameters.swift": ["dh1024", "dh512", "dh480", "dh-composite", "dh-small-subgroup"],
        "Sources/TrustLab/LabPKI.swift": ["rsa-2048", "no-forward-secrecy"],
        "Sources/TrustLab/LabReport.swift": ["null"],
    ]

    @Test func testNoSourceOutsideAScenariosFileSpellsItsName() throws {
        let sources = Self.root.appendingPathComponent("Sources")
        let files = try #require(FileManager.default.subpaths(atPath: sources.path)).filter { $0.hasSuffix(".swift") }
        var found: [String] = []
        for file in files where !file.hasPrefix("TrustLab/LabScenario+") {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            // The lab's own modules, and whoever uses them.
            guard file.hasPrefix("TrustLab/") || file.hasPrefix("LabServers/") || text.contains("import TrustLab")
            else { continue }
            let allowed = Self.otherMeanings["Sources/" + file] ?? []
            for scenario in LabScenario.all where !allowed.contains(scenario.name) {
                if text.contains("\"\(scenario.name)\"") { found.append("\(file): \(scenario.name)") }
            }
        }
        #expect(found == [])
    }

    @Test func testAnUnknownNameIsAnErrorNotAnotherScenario() {
        #expect(throws: LabError.unknownScenario("wrong.hots")) {
            try Lab.start(LabOptions(scenarios: ["wrong.hots"]))
        }
    }
}
