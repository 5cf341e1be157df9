import Foundation

/// The parts of an x509-limbo file the harness reads (C2SP/x509-limbo, schema version 1).
struct LimboFile: Decodable {
    var version: Int?
    var testcases: [LimboTestcase]
}

/// One x509-limbo testcase.
struct LimboTestcase: Decodable {
    var id: String
    var description: String
    var validation_kind: String
    var trusted_certs: [String]
    var untrusted_intermediates: [String]
    var peer_certificate: String
    var validation_time: String?
    var signature_algorithms: [String]?
    var key_usage: [String]?
    var extended_key_usage: [String]?
    var expected_result: String
    var expected_peer_name: LimboPeerName?
    var max_chain_depth: Int?
    var crls: [String]?
}

/// `expected_peer_name`: `{kind: DNS|IP|RFC822, value}`.
struct LimboPeerName: Decodable {
    var kind: String
    var value: String
}

/// One entry of the harness output.
struct LimboResult: Encodable {
    var id: String
    var actual_result: String
    var context: String
}

/// The harness output: `{"harness": ..., "results": [...]}`.
struct LimboOutput: Encodable {
    var harness: String
    var results: [LimboResult]
}

/// What the harness reports for one testcase.
enum LimboVerdict: String {
    case success = "SUCCESS"
    case failure = "FAILURE"
    case skipped = "SKIPPED"
}

/// Counts for the summary line.
struct Tally {
    var run = 0
    var asExpected = 0
    var wronglyAccepted = 0
    var wronglyRejected = 0
    var skipped = 0

    mutating func add(expected: String, actual: LimboVerdict) {
        if actual == .skipped {
            skipped += 1
            return
        }
        run += 1
        if actual.rawValue == expected {
            asExpected += 1
        } else if actual == .success {
            wronglyAccepted += 1
        } else {
            wronglyRejected += 1
        }
    }

    var asExpectedPercent: Double { run == 0 ? 0 : Double(asExpected) * 100 / Double(run) }

    var skippedPercent: Double {
        let total = run + skipped
        return total == 0 ? 0 : Double(skipped) * 100 / Double(total)
    }

    var summary: String {
        let percent = asExpectedPercent
        return
            "run \(run), as expected \(asExpected) (\(String(format: "%.2f", percent))%), wrongly accepted \(wronglyAccepted), wrongly rejected \(wronglyRejected), skipped \(skipped) (\(String(format: "%.2f", skippedPercent))%)"
    }
}
