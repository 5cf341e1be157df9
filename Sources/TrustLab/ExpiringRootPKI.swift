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
        let rootKey = try KeyPair.generate(.ecP256)
        var b = CertificateBuilder(
            subject: NameBuilder(commonName: "Lab Expiring Root"), publicKey: rootKey,
            notBefore: now.adding(seconds: -3 * 365 * day), notAfter: now.adding(seconds: rootDaysLeft * day))
        b.basicConstraints = .init(isCA: true)
        b.keyUsage = .init([.keyCertSign, .cRLSign])
        let root = LabIssued(certificate: try b.selfSign(key: rootKey), key: rootKey)
        let ips = try serverIPs.map { ip throws(BuilderError) in try GeneralName.ip(ip) }
        return ExpiringRootPKI(root: root, ips: ips, now: now)
    }

    /// A leaf of the root for `host`, issued a day ago and ending a day before the root, sent
    /// alone, with SCTs from `logs` dated at its issuance.
    func chain(host: String, logs: [CTTestLog]) throws(BuilderError) -> LabServedChain {
        let start = now.adding(seconds: -LabPKI.day)
        let leafKey = try KeyPair.generate(.ecP256)
        var leaf = CertificateBuilder(
            subject: NameBuilder(commonName: host), publicKey: leafKey, notBefore: start,
            notAfter: now.adding(seconds: (Self.rootDaysLeft - 1) * LabPKI.day))
        leaf.basicConstraints = .init(isCA: false, critical: false)
        leaf.keyUsage = .init([.digitalSignature])
        leaf.extendedKeyUsage = .init([.serverAuth])
        leaf.subjectAltNames = .init([.dnsName(host)] + ips)
        let certificate = try leaf.signWithEmbeddedSCTs(
            logs.map { EmbeddedSCTRequest($0, at: start) }, issuerKey: root.key, issuer: root.certificate)
        return LabServedChain(chain: [certificate], key: leafKey)
    }
}
