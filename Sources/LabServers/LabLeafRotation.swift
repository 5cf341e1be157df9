import TrustX509

/// Leaves a server takes turns with on a wall-clock schedule, each with its own key: leaf
/// `index(unixTime:)` for every handshake that starts in a period, so a trainer can say which
/// leaf a connection will get, and every server started with the same period agrees.
public struct LabLeafRotation: Sendable {
    /// The leaves in turn: each chain as sent, leaf first, and the leaf's private key (PKCS#8 PEM).
    public var leaves: [(chain: [Certificate], privateKeyPEM: String)]
    /// Seconds each leaf is served, at least 1.
    public var period: Int

    /// Creates a rotation; a period below 1 s is taken as 1 s.
    public init(leaves: [(chain: [Certificate], privateKeyPEM: String)], period: Int) {
        self.leaves = leaves
        self.period = max(1, period)
    }

    /// The leaf served at `unixTime`: floor(unixTime / period) modulo the number of leaves (with
    /// two leaves, the first in even periods and the second in odd ones).
    public static func index(unixTime: Int64, period: Int, count: Int) -> Int {
        guard count > 1 else { return 0 }
        let slot = unixTime >= 0 ? unixTime / Int64(max(1, period)) : 0
        return Int(slot % Int64(count))
    }

    /// The first second of the period after the one holding `unixTime`: when the next leaf
    /// starts being served.
    public static func nextSwitch(after unixTime: Int64, period: Int) -> Int64 {
        let p = Int64(max(1, period))
        return (max(0, unixTime) / p + 1) * p
    }
}
