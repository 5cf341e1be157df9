import LabServers
import TrustBuilder
import TrustSupport

/// Where a slow key of the lab stands in this process.
public enum LabKeyState: String, Hashable, Sendable {
    /// Nothing has asked for it yet.
    case notStarted = "not started"
    /// Being made (or read from the key cache) in the background.
    case generating
    /// Made: servers present it from now on.
    case ready
}

/// RSA keys too slow to make at lab start-up (4,096 bits takes about a second on a laptop, 8,192
/// a minute on a loaded one), made once and kept: in the process, and through `LabKeyCache` in
/// the user's cache directory, so only the first lab ever served on a machine waits for them.
/// A lab serving them starts making them in the background as it starts (`prepare(bits:)`), so
/// the first client waits at most for what is left of the generation (D310).
package enum LabSlowKeys {
    private static let keys = LabLock<[Int: KeyPair]>([:])
    /// One lock per size, held while its key is made.
    private static let sizeLocks = LabLock<[Int: LabLock<Void>]>([:])
    /// Sizes whose key a background thread is making.
    private static let inFlight = LabLock<Set<Int>>([])

    /// The RSA key of `bits` bits: the one made before, or a new one (slow; call it off the
    /// start-up path). A caller asking while the background makes it waits for that key.
    static func rsa(bits: Int) throws(BuilderError) -> KeyPair {
        if let key = cached(bits: bits) { return key }
        // One maker per size, even with the key cache off: a first client arriving while the
        // background makes the key waits for that key. Other sizes are not held up.
        let lock = sizeLocks.withLock { locks in
            if let known = locks[bits] { return known }
            let made = LabLock(())
            locks[bits] = made
            return made
        }
        let outcome = lock.withLock { _ -> Result<KeyPair, BuilderError> in
            if let key = cached(bits: bits) { return .success(key) }
            do throws(BuilderError) {
                return .success(try LabKeyCache.shared.key(.rsa(bits: bits), role: "badssl"))
            } catch {
                return .failure(error)
            }
        }
        let key = try outcome.get()
        // A preloaded key may have arrived meanwhile: the first kept wins, so every server of
        // the process presents the same key.
        return keys.withLock { keys in
            if let earlier = keys[bits] { return earlier }
            keys[bits] = key
            return key
        }
    }

    /// Starts making the key of `bits` bits on a background thread unless it exists or is being
    /// made; returns at once. A failure leaves it to the first client, which tries again.
    static func prepare(bits: Int) {
        guard cached(bits: bits) == nil else { return }
        let first = inFlight.withLock { $0.insert(bits).inserted }
        guard first else { return }
        do {
            // Detached: a lab stopped meanwhile does not wait; the key stays for the next one.
            _ = try POSIXThread(detached: true) {
                _ = try? rsa(bits: bits)
                _ = inFlight.withLock { $0.remove(bits) }
            }
        } catch {
            _ = inFlight.withLock { $0.remove(bits) }
        }
    }

    /// Whether the key of `bits` bits is made, being made, or neither.
    static func state(bits: Int) -> LabKeyState {
        // In this order: the background thread keeps the key before it leaves `inFlight`.
        if inFlight.withLock({ $0.contains(bits) }) { return .generating }
        return cached(bits: bits) != nil ? .ready : .notStarted
    }

    /// The key of `bits` bits if one was made (or handed over) already.
    static func cached(bits: Int) -> KeyPair? { keys.withLock { $0[bits] } }

    /// Forgets the key of `bits` bits made in this process (the key cache may still hold it), so a
    /// test can see a lab start making it.
    static func forget(bits: Int) { _ = keys.withLock { $0.removeValue(forKey: bits) } }

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
