import TrustBuilder

/// RSA keys too slow to make at lab start-up (4,096 bits takes about a second on a laptop, 8,192
/// a minute on a loaded one), made once and kept: in the process, and through `LabKeyCache` in
/// the user's cache directory, so only the first lab ever served on a machine waits for them.
package enum LabSlowKeys {
    private static let keys = LabLock<[Int: KeyPair]>([:])

    /// The RSA key of `bits` bits: the one made before, or a new one (slow; call it off the
    /// start-up path).
    static func rsa(bits: Int) throws(BuilderError) -> KeyPair {
        if let key = cached(bits: bits) { return key }
        // The key is made outside this lock: a minute of work must not hold up other sizes.
        let key = try LabKeyCache.shared.key(.rsa(bits: bits), role: "badssl")
        // Two first clients may both have made one: the first kept wins, so every server of the
        // process presents the same key.
        return keys.withLock { keys in
            if let earlier = keys[bits] { return earlier }
            keys[bits] = key
            return key
        }
    }

    /// The key of `bits` bits if one was made (or handed over) already.
    static func cached(bits: Int) -> KeyPair? { keys.withLock { $0[bits] } }

    /// Hands over an RSA key made elsewhere (a test's fixture, PKCS#8 PEM), used from then on
    /// for its size.
    /// - Returns: the key's size in bits.
    @discardableResult
    package static func preload(privateKeyPEM: String) throws(BuilderError) -> Int? {
        let key = try KeyPair(privateKeyPEM: privateKeyPEM)
        guard case .rsa(let bits) = key.kind else { return nil }
        keys.withLock { $0[bits] = key }
        return bits
    }
}
