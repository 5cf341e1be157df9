// trustx-limbo FILE [--failures]: runs every x509-limbo testcase in FILE with the `webpki` profile
// and prints limbo's harness JSON on stdout, a summary line on stderr.
import Foundation
import TrustCore

let usage = "USAGE: trustx-limbo <file> [--failures] [--check] [--id <id>] [--profile <profile>]"

/// Cases whose acceptance is known and explained; anything else wrongly accepted fails `--check`.
/// None today: the CA/Browser Forum rules apply to the `webpki::` and `online::` namespaces only
/// (D40), which settles the suite's conflicts between its RFC 5280 and Web PKI cases.
let knownConflicts: Set<String> = []

var arguments = Array(CommandLine.arguments.dropFirst())
var showFailures = false
if let i = arguments.firstIndex(of: "--failures") {
    showFailures = true
    arguments.remove(at: i)
}
var profile = RuleProfile.webpki
if let i = arguments.firstIndex(of: "--profile"), i + 1 < arguments.count {
    guard let p = RuleProfile(rawValue: arguments[i + 1]) else {
        FileHandle.standardError.write(
            Data(
                "Error: unknown profile \(arguments[i + 1]) (apple or webpki).\n\(usage)\nSee 'trustx-limbo --help' for more information.\n"
                    .utf8))
        exit(64)
    }
    profile = p
    arguments.removeSubrange(i...(i + 1))
}
var check = false
if let i = arguments.firstIndex(of: "--check") {
    check = true
    arguments.remove(at: i)
}
var onlyID: String?
if let i = arguments.firstIndex(of: "--id"), i + 1 < arguments.count {
    onlyID = arguments[i + 1]
    arguments.removeSubrange(i...(i + 1))
}
if arguments.contains("--help") || arguments.contains("-h") {
    print(
        "OVERVIEW: Runs an x509-limbo testcase file with the webpki profile.\n\n\(usage)\n\nARGUMENTS:\n  <file>      The limbo JSON file.\n\nOPTIONS:\n  --failures  Print each mismatching testcase to standard error.\n  --check     Exit 1 below 99.5% as expected, on any skipped case, or on any wrongly accepted\n              case.\n  --id <id>   Run only this testcase and print every step to standard error.\n  --profile <profile>\n              The rule profile: apple or webpki. (default: webpki)\n  -h, --help  Show help information."
    )
    exit(0)
}
guard arguments.count == 1 else {
    FileHandle.standardError.write(
        Data("Error: expected one limbo file.\n\(usage)\nSee 'trustx-limbo --help' for more information.\n".utf8))
    exit(64)
}

let path = arguments[0]
let data: Data
do {
    data = try Data(contentsOf: URL(fileURLWithPath: path))
} catch {
    FileHandle.standardError.write(Data("Error: cannot read \(path): \(error.localizedDescription)\n".utf8))
    exit(66)
}
let limbo: LimboFile
do {
    limbo = try JSONDecoder().decode(LimboFile.self, from: data)
} catch {
    FileHandle.standardError.write(Data("Error: \(path) is not an x509-limbo file: \(error)\n".utf8))
    exit(65)
}

let runner = LimboRunner(profile: profile)
var results: [LimboResult] = []
var tally = Tally()
var failureReport = ""
var unexplainedAccepted: [String] = []
let started = Date()
for testcase in limbo.testcases where onlyID == nil || testcase.id == onlyID {
    let outcome = runner.run(testcase, trace: onlyID != nil)
    results.append(LimboResult(id: testcase.id, actual_result: outcome.result.rawValue, context: outcome.context))
    tally.add(expected: testcase.expected_result, actual: outcome.result)
    if outcome.result == .success, testcase.expected_result == "FAILURE", !knownConflicts.contains(testcase.id) {
        unexplainedAccepted.append(testcase.id)
    }
    if showFailures, outcome.result != .skipped, outcome.result.rawValue != testcase.expected_result {
        let kind = testcase.expected_result == "FAILURE" ? "WRONGLY ACCEPTED" : "WRONGLY REJECTED"
        failureReport += "\(kind) \(testcase.id)\n"
        let description = testcase.description.split(separator: "\n").joined(separator: "\n    ")
        failureReport += "    \(description)\n"
        if !outcome.context.isEmpty { failureReport += "  -> \(outcome.context)\n" }
    }
}
let elapsed = Date().timeIntervalSince(started)

let encoder = JSONEncoder()
encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
let output = LimboOutput(harness: "trustx \(LimboRunner.version)", results: results)
FileHandle.standardOutput.write(try! encoder.encode(output))
FileHandle.standardOutput.write(Data("\n".utf8))

if showFailures { FileHandle.standardError.write(Data(failureReport.utf8)) }
FileHandle.standardError.write(Data((tally.summary + String(format: " (%.2f s)", elapsed) + "\n").utf8))

if check {
    var problems: [String] = []
    if tally.asExpectedPercent < 99.5 {
        problems.append(String(format: "%.2f%% as expected is below 99.5%%", tally.asExpectedPercent))
    }
    if tally.skipped > 0 { problems.append("\(tally.skipped) skipped (every case must run)") }
    if !unexplainedAccepted.isEmpty {
        problems.append("wrongly accepted: " + unexplainedAccepted.joined(separator: ", "))
    }
    if !problems.isEmpty {
        FileHandle.standardError.write(
            Data(("trustx-limbo --check failed: " + problems.joined(separator: "; ") + "\n").utf8))
        exit(1)
    }
}
