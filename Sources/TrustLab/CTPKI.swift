import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// The certificates and logs of the Certificate Transparency lessons: a root of their own ("Lab
/// CT Root"), which the lessons install as the system store with `--store`, four test logs
/// (three run by one operator, one by another) written as the lab's own log list for
/// `--ct-logs`, and one leaf per scenario with the SCTs the scenario teaches.
struct CTPKI: Sendable {
    /// What each CT scenario sends.
    var served: [String: LabServedChain]
    /// The root the lessons use as a system root.
    var root: Certificate
    /// The lab's log list, in Apple's JSON format (schema v5).
    var logListJSON: String

    /// The file name of the log list in the lab folder.
    static let logListFileName = "ct-logs.json"

    /// Builds the root, the logs and a leaf for each CT scenario.
    /// - Parameters:
    ///   - serverIPs: the leaves' subjectAltName addresses, as the lab's other leaves have them.
    static func build(now: Timestamp, serverIPs: [String]) throws(BuilderError) -> CTPKI {
        let day = LabPKI.day
        let rootKey = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: "Lab CT Root"), publicKey: rootKey,
            notBefore: now.adding(seconds: -30 * day), notAfter: now.adding(seconds: 3650 * day))
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        let root = try b.selfSign(key: rootKey)

        let sameOperator = try (1...3).map { i throws(BuilderError) in
            try CTTestLog("Lab Log A\(i)", operatorName: "Lab Operator A")
        }
        let others = try [
            CTTestLog("Lab Log B1", operatorName: "Lab Operator B"),
            CTTestLog("Lab Log C1", operatorName: "Lab Operator C"),
        ]
        let logs = sameOperator + others

        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        // Issued a day ago, for 397 days: within the 398 days Apple allows below a system root
        // (docs/steps.md, validity-period-maximum), and over 180 days, so 3 logs are needed.
        let start = now.adding(seconds: -day)
        var served: [String: LabServedChain] = [:]
        let embedded: [String: [CTTestLog]] = [
            "ct-one-operator": sameOperator, "ct-valid": [sameOperator[0], others[0], others[1]],
        ]
        for scenario in LabScenario.certificateTransparency {
            let scts = embedded[scenario.name] ?? []
            let leafKey = try KeyPair.generate(.ecP256)
            var leaf = CertificateBuilder(
                subject: NameBuilder(commonName: scenario.host), publicKey: leafKey, notBefore: start,
                notAfter: start.adding(seconds: 397 * day))
            leaf.basicConstraints = .init(isCA: false, critical: false)
            leaf.keyUsage = .init([.digitalSignature])
            leaf.extendedKeyUsage = .init([.serverAuth])
            leaf.subjectAltNames = .init([.dnsName(scenario.host)] + ips)
            let certificate =
                scts.isEmpty
                ? try leaf.sign(issuerKey: rootKey, issuer: root)
                : try leaf.signWithEmbeddedSCTs(
                    scts.map { EmbeddedSCTRequest($0, at: start) }, issuerKey: rootKey, issuer: root)
            served[scenario.name] = LabServedChain(chain: [certificate], key: leafKey)
        }
        return CTPKI(served: served, root: root, logListJSON: logList(logs))
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
