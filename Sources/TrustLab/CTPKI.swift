import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// The certificates and logs of the Certificate Transparency lessons: a root of their own ("Lab
/// CT Root"), which the lessons install as the system store with `--store`, four test logs
/// (three run by one operator, one by another) written as the lab's own log list for
/// `--ct-logs`, and one leaf per scenario with the SCTs the scenario teaches.
struct CTPKI: Sendable {
    /// The root the lessons use as a system root, and its key.
    var root: LabIssued
    /// Three logs run by one operator.
    var sameOperator: [CTTestLog]
    /// One log each of two other operators.
    var others: [CTTestLog]
    /// The lab's addresses, after the host in every leaf's subjectAltName.
    var ips: [GeneralName]
    var now: Timestamp

    /// The lab's log list, in Apple's JSON format (schema v5).
    var logListJSON: String { CTPKI.logList(sameOperator + others) }

    /// The file name of the log list in the lab folder.
    static let logListFileName = "ct-logs.json"

    /// Builds the root and the logs.
    /// - Parameters:
    ///   - serverIPs: the leaves' subjectAltName addresses, as the lab's other leaves have them.
    static func build(now: Timestamp, serverIPs: [String]) throws(BuilderError) -> CTPKI {
        let day = LabPKI.day
        let root = try LabIssued.root(
            "Lab CT Root", notBefore: now.adding(seconds: -30 * day), notAfter: now.adding(seconds: 3650 * day))

        let sameOperator = try (1...3).map { i throws(BuilderError) in
            try CTTestLog("Lab Log A\(i)", operatorName: "Lab Operator A")
        }
        let others = try [
            CTTestLog("Lab Log B1", operatorName: "Lab Operator B"),
            CTTestLog("Lab Log C1", operatorName: "Lab Operator C"),
        ]
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        return CTPKI(root: root, sameOperator: sameOperator, others: others, ips: ips, now: now)
    }

    /// A leaf of the root for `host`, sent alone, with SCTs embedded from `logs` (none when empty).
    func chain(host: String, logs: [CTTestLog]) throws(BuilderError) -> LabServedChain {
        // Issued a day ago, for 397 days: within the 398 days Apple allows below a system root
        // (docs/steps.md, validity-period-maximum), and over 180 days, so 3 logs are needed.
        let start = now.adding(seconds: -LabPKI.day)
        return try root.serverLeaf(
            host: host, ips: ips, notBefore: start, notAfter: start.adding(seconds: 397 * LabPKI.day), logs: logs)
    }

    /// The logs as Apple's JSON log list: one operator entry per operator, every log usable.
    static func logList(_ logs: [CTTestLog]) -> String {
        var operators: [String] = []
        var order: [String] = []
        for log in logs where !order.contains(log.operatorName) { order.append(log.operatorName) }
        for name in order {
            let entries = logs.filter { $0.operatorName == name }.map { log in
                "{\"description\": \"\(log.description)\", \"key\": \"\(Base64.encode(log.key.spkiDER))\", "
                    + "\"log_id\": \"\(Base64.encode(log.logID))\", \"mmd\": 86400, "
                    + "\"state\": {\"usable\": {\"timestamp\": \"2020-01-01T00:00:00Z\"}}}"
            }
            operators.append(
                "{\"name\": \"\(name)\", \"email\": [], \"logs\": [\(entries.joined(separator: ", "))], \"tiled_logs\": []}"
            )
        }
        return "{\"operators\": [\(operators.joined(separator: ", "))]}\n"
    }
}
