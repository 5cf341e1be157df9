import TrustBuilder
import TrustCore
import TrustSupport
import TrustX509

/// The certificates of the TLS-inspection lessons, made as an inspection proxy makes them: one
/// root of its own ("Inspection Proxy Root", which the proxy asks every device behind it to
/// install) and, for each host a client asks for, a leaf naming that host, signed by the root
/// with the one key the proxy uses for all its leaves. The server sends the leaf alone, so a
/// device that has not installed the root cannot even build a path.
struct InspectionPKI: Sendable {
    /// The proxy's root and its key.
    var root: LabIssued
    /// The one key the proxy uses for all its leaves.
    var leafKey: KeyPair
    /// The lab's addresses, after the host in every leaf's subjectAltName.
    var ips: [GeneralName]
    var now: Timestamp

    /// Builds the root and the proxy's leaf key.
    /// - Parameters:
    ///   - serverIPs: appended to every leaf's subjectAltName after the host, as the lab's other
    ///     named leaves do, for clients that dial an address.
    static func build(now: Timestamp, serverIPs: [String]) throws(BuilderError) -> InspectionPKI {
        let day = LabPKI.day
        let root = try LabIssued.root(
            "Inspection Proxy Root", notBefore: now.adding(seconds: -30 * day),
            notAfter: now.adding(seconds: 3650 * day))
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        return InspectionPKI(root: root, leafKey: try KeyPair.generate(.ecP256), ips: ips, now: now)
    }

    /// The proxy's leaf for `host`, sent alone.
    func chain(host: String) throws(BuilderError) -> LabServedChain {
        // A lifetime within what Apple allows below a root the user installed (docs/steps.md,
        // validity-period-maximum), so the only thing a device can refuse is the root itself.
        let start = now.adding(seconds: -LabPKI.day)
        return try root.serverLeaf(
            host: host, ips: ips, notBefore: start, notAfter: start.adding(seconds: 397 * LabPKI.day), key: leafKey)
    }
}
