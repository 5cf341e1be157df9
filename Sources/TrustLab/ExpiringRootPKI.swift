import TrustBuilder
import TrustSupport
import TrustX509

/// The certificates of the early-expiry lesson: "Lab Expiring Root", made at every start valid
/// from three years ago until 30 days from now (valid for well over 120 days, and expiring within
/// the 60 days by which trustd moves a root's expiry for Apple's own programs), and a 30-day leaf
/// inside it, with SCTs from three of the CT lessons' logs so that the root can also play a
/// system root (`--store`, with the lab's log list).
struct ExpiringRootPKI: Sendable {
    /// The root and its key.
    var root: LabIssued
    /// The lab's addresses, after the host in every leaf's subjectAltName.
    var ips: [GeneralName]
    var now: Timestamp

    /// How long the root has left when the lab starts.
    static let rootDaysLeft: Int64 = 30

    /// Builds the root.
    static func build(now: Timestamp, serverIPs: [String]) throws(BuilderError) -> ExpiringRootPKI {
        let day = LabPKI.day
        let root = try LabIssued.root(
            "Lab Expiring Root", notBefore: now.adding(seconds: -3 * 365 * day),
            notAfter: now.adding(seconds: rootDaysLeft * day))
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        return ExpiringRootPKI(root: root, ips: ips, now: now)
    }

    /// A leaf of the root for `host`, issued a day ago and ending a day before the root, sent
    /// alone, with SCTs from `logs` dated at its issuance.
    func chain(host: String, logs: [CTTestLog]) throws(BuilderError) -> LabServedChain {
        try root.serverLeaf(
            host: host, ips: ips, notBefore: now.adding(seconds: -LabPKI.day),
            notAfter: now.adding(seconds: (Self.rootDaysLeft - 1) * LabPKI.day), logs: logs)
    }
}
