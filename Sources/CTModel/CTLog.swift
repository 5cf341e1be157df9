import AppleTrustData
import TrustSupport
import TrustX509

/// One Certificate Transparency log as trustd knows it: its ID and key, its operator, and the
/// dates that limit which of its SCTs count (Security, trust/trustd/CertificateTransparency.m,
/// isSCTValidForLogData).
public struct CTLog: Hashable, Sendable {
    /// A log's state in Apple's list (schema v5).
    public enum State: String, Hashable, Sendable {
        case pending, qualified, usable, readonly, retired, rejected
        /// A log from a property-list array (SecTrustSetTrustedLogs), which names no state: trusted,
        /// read-only or retired by its dates alone.
        case listed

        /// Whether trustd trusts SCTs from a log in this state at all: Apple's list build leaves
        /// pending and rejected logs out (security_certificates, BuildTrustedCTLogsPlist.py).
        public var isTrusted: Bool { self != .pending && self != .rejected }
    }

    /// SHA-256 of `key`, or the ID the list gave.
    public var logID: [UInt8]
    /// The log's DER SubjectPublicKeyInfo.
    public var key: [UInt8]
    /// The operator's name.
    public var operatorName: String
    /// The log's description, e.g. `Google 'Argon2025h2' log` (its ID in base64 when the list
    /// gives none).
    public var description: String
    /// The state.
    public var state: State
    /// When the log entered `state`, when the list says.
    public var stateSince: Timestamp?
    /// From when the log is read-only: SCTs dated later do not count (trustd's `frozen`).
    public var readOnlyFrom: Timestamp?
    /// From when the log is retired (trustd's `expiry`): its delivered SCTs never count, its
    /// embedded ones only when dated, and the certificate issued, before then.
    public var retiredFrom: Timestamp?
    /// The temporal interval's start: only certificates expiring at or after it are accepted.
    public var intervalStart: Timestamp?
    /// The temporal interval's end (exclusive).
    public var intervalEnd: Timestamp?
    /// Whether the log takes TLS certificates only.
    public var tlsOnly: Bool
    /// Whether it is a tiled log (static-ct-api, the list's `tiled_logs`) rather than an RFC 6962
    /// one; a property-list log names no API and is taken as RFC 6962.
    public var tiled: Bool

    /// Creates a log.
    public init(
        key: [UInt8], operatorName: String, description: String? = nil, logID: [UInt8]? = nil,
        state: State = .usable, stateSince: Timestamp? = nil, readOnlyFrom: Timestamp? = nil,
        retiredFrom: Timestamp? = nil, intervalStart: Timestamp? = nil, intervalEnd: Timestamp? = nil,
        tlsOnly: Bool = false, tiled: Bool = false
    ) {
        let id = logID ?? Digest.sha256(key)
        self.logID = id
        self.key = key
        self.operatorName = operatorName
        self.description = description ?? "log " + Base64.encode(id)
        self.state = state
        self.stateSince = stateSince
        self.readOnlyFrom = readOnlyFrom ?? (state == .readonly ? stateSince : nil)
        self.retiredFrom = retiredFrom ?? (state == .retired ? stateSince : nil)
        self.intervalStart = intervalStart
        self.intervalEnd = intervalEnd
        self.tlsOnly = tlsOnly
        self.tiled = tiled
    }

    /// Whether the log is retired (has a retirement date, whatever it is: trustd asks only
    /// whether the date is there).
    public var isRetired: Bool { retiredFrom != nil }
}

/// The logs SCTs are checked against: Apple's list compiled in, or one given with `--ct-logs`
/// (SecTrustSetTrustedLogs).
public struct CTLogList: Sendable {
    /// Where the list came from, for reports: `Apple security_certificates-…` or a file path.
    public var source: String
    /// Every log, trusted or not, in the list's order.
    public var logs: [CTLog]
    /// Index of the log trustd would use for each ID: later entries replace earlier ones, as in
    /// trustd's dictionary; logs Apple does not trust are found only when no trusted one has the ID.
    private var index: [[UInt8]: Int] = [:]

    /// Creates a list.
    public init(source: String, logs: [CTLog]) {
        self.source = source
        self.logs = logs
        for (i, log) in logs.enumerated() {
            if let existing = index[log.logID], logs[existing].state.isTrusted, !log.state.isTrusted { continue }
            index[log.logID] = i
        }
    }

    /// The log with `id`, trusted or not.
    public func log(withID id: [UInt8]) -> CTLog? { index[id].map { logs[$0] } }

    /// How many logs trustd would trust.
    public var trustedCount: Int { logs.filter { $0.state.isTrusted }.count }

    /// Apple's list, compiled from security_certificates (AppleTrustData).
    public static let apple: CTLogList = {
        var logs: [CTLog] = []
        for r in AppleCTLogs.logs {
            guard let key = Base64.decode(r.key), let id = Base64.decode(r.logID),
                let state = CTLog.State(rawValue: r.state)
            else { continue }
            logs.append(
                CTLog(
                    key: key, operatorName: r.operatorName, description: r.description, logID: id, state: state,
                    stateSince: Timestamp(rfc3339: r.stateTimestamp),
                    intervalStart: r.intervalStart.flatMap { Timestamp(rfc3339: $0) },
                    intervalEnd: r.intervalEnd.flatMap { Timestamp(rfc3339: $0) }, tlsOnly: r.tlsOnly,
                    tiled: r.tiled))
        }
        return CTLogList(source: appleSource, logs: logs)
    }()

    /// How reports name Apple's list, without decoding it.
    public static let appleSource = "Apple \(AppleCTLogs.tag) (\(AppleCTLogs.listVersion))"
}
