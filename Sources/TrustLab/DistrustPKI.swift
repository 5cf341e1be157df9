import TrustBuilder
import TrustSupport
import TrustX509

/// The certificates of the distrust lessons: "Lab Distrusted Root", which the lab's date
/// constraint file (`--date-constraints`) says is trusted only for certificates issued on or before
/// a cut-off ten days before the lab started, as Apple's Valid database says of Entrust's roots
/// (2024-11-15), and one leaf issued before the cut-off and one after, each with SCTs from three
/// of the CT lessons' logs, one per operator.
struct DistrustPKI: Sendable {
    /// The root and its key.
    var root: LabIssued
    /// The cut-off: certificates issued after it are not trusted.
    var cutoff: Timestamp
    /// The lab's addresses, after the host in every leaf's subjectAltName.
    var ips: [GeneralName]
    var now: Timestamp

    /// The file name of the lab's date constraints in the lab folder.
    static let fileName = "date-constraints.json"

    /// Builds the root; the cut-off is ten days before `now`.
    static func build(now: Timestamp, serverIPs: [String]) throws(BuilderError) -> DistrustPKI {
        let day = LabPKI.day
        let root = try LabIssued.root(
            "Lab Distrusted Root", notBefore: now.adding(seconds: -60 * day), notAfter: now.adding(seconds: 3650 * day))
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        return DistrustPKI(root: root, cutoff: now.adding(seconds: -10 * day), ips: ips, now: now)
    }

    /// A 397-day leaf of the root for `host` issued `daysAgo` days ago, sent alone, with SCTs from
    /// `logs` dated at its issuance (the path's issuance time trustd compares with the cut-off).
    func chain(host: String, issuedDaysAgo daysAgo: Int64, logs: [CTTestLog]) throws(BuilderError)
        -> LabServedChain
    {
        let start = now.adding(seconds: -daysAgo * LabPKI.day)
        return try root.serverLeaf(
            host: host, ips: ips, notBefore: start, notAfter: start.adding(seconds: 397 * LabPKI.day), logs: logs)
    }

    /// The lab's date constraints as `--date-constraints` reads them: the root, issued after the
    /// cut-off not trusted, overridable (a failure is GrayListedKey, errSecNotTrusted, recoverable).
    var constraintsJSON: String {
        "{\"constraints\": [{\"name\": \"Lab Distrusted Root\", \"sha256\": \"\(hexString(root.certificate.sha256))\", "
            + "\"notAfter\": \"\(cutoff.rfc3339)\", \"overridable\": true, "
            + "\"source\": \"trustx lab (a stand-in for an entry of trustd's Valid database)\"}]}\n"
    }
}
