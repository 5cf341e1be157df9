import LabServers
import TrustBuilder
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// Module-qualified: the cache's own `read` and `write` would shadow the system calls.
#if canImport(Glibc)
    private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
    private func closeFile(_ fd: Int32) { _ = Glibc.close(fd) }
#else
    private func readFile(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
        Darwin.read(fd, buffer, count)
    }
    private func closeFile(_ fd: Int32) { _ = Darwin.close(fd) }
#endif

/// The lab's slow keys, made once and reused: kept in this process and, between processes, in
/// files of the user's cache directory.
///
/// An RSA key takes a generation of tens to hundreds of milliseconds, most of a lab start's time,
/// and every `trustx lab` and `trustx explore` starts a lab. These keys belong to loopback
/// teaching servers whose certificates are still made fresh on every start (so validity periods
/// always fit the start time); only the key under them is reused (D148).
///
/// Each key is named by its kind and the role it plays, so two lessons never share a key by
/// accident and a role given a larger key gets a key of its own.
///
/// On disk: `$XDG_CACHE_HOME/trustx/lab-keys/` (else `~/.cache/trustx/lab-keys/`), a directory of
/// mode 0700 holding one unencrypted PKCS#8 PEM per key, mode 0600. A file is used only when it is
/// a regular file (not a link) owned by the user, unreadable to others, at most 64 KiB, and holds
/// a key of exactly the kind asked for; anything else is replaced by a fresh key. Setting
/// `TRUSTX_LAB_FRESH_KEYS` (to anything but `0` or nothing) turns the cache off: every key is
/// generated afresh and nothing is read or written.
final class LabKeyCache: Sendable {
    /// One cached key: what kind it is and which role it plays in the lab.
    struct Entry: Hashable, Sendable {
        var kind: KeyKind
        /// Lower-case letters, digits and hyphens (it names the file).
        var role: String
    }

    /// The environment variable that turns the cache off.
    static let optOutVariable = "TRUSTX_LAB_FRESH_KEYS"
    /// The largest key file read back (an RSA 16,384 key in PEM is about 12 KB).
    static let maximumFileBytes = 65_536

    /// False when every request generates a fresh key (the opt-out).
    let enabled: Bool
    /// The directory keys are kept in between processes; nil keeps them in this process only.
    let directory: String?
    private let pool = LabLock<[Entry: KeyPair]>([:])
    /// One lock per entry, held while that entry's key is read or made: two labs starting at once
    /// wait for one key rather than each making its own, and a key made in the background (an
    /// RSA 8,192 key, a minute on a loaded machine) holds up no other key.
    private let entryLocks = LabLock<[Entry: LabLock<Void>]>([:])

    /// - Parameters:
    ///   - enabled: false generates every key afresh, in memory and on disk alike.
    ///   - directory: where keys are kept between processes (created 0700 when missing); nil
    ///     keeps them in this process only.
    init(enabled: Bool = true, directory: String?) {
        self.enabled = enabled
        self.directory = directory
    }

    /// The process's cache, configured from its environment.
    static let shared: LabKeyCache = {
        let settings = configuration { name in getenv(name).map { String(cString: $0) } }
        return LabKeyCache(enabled: settings.enabled, directory: settings.directory)
    }()

    /// Whether the cache is on and where it keeps its files, from environment variables
    /// (`lookup` gives a variable's value): `TRUSTX_LAB_FRESH_KEYS` turns it off; the directory is
    /// `$XDG_CACHE_HOME/trustx/lab-keys` when that is an absolute path, else
    /// `$HOME/.cache/trustx/lab-keys`, else none (memory only).
    static func configuration(_ lookup: (String) -> String?) -> (enabled: Bool, directory: String?) {
        if let optOut = lookup(optOutVariable), !optOut.isEmpty, optOut != "0" { return (false, nil) }
        func absolute(_ name: String) -> String? {
            guard var value = lookup(name), value.first == "/" else { return nil }
            while value.count > 1 && value.hasSuffix("/") { value.removeLast() }
            return value == "/" ? "" : value
        }
        if let cache = absolute("XDG_CACHE_HOME") { return (true, cache + "/trustx/lab-keys") }
        if let home = absolute("HOME") { return (true, home + "/.cache/trustx/lab-keys") }
        return (true, nil)
    }

    /// The key of `kind` for `role`: the one this process already has, else the one kept on
    /// disk, else a fresh one (then kept). With the cache off, always a fresh one.
    /// - Throws: `BuilderError.openssl` when a key cannot be generated.
    func key(_ kind: KeyKind, role: String) throws(BuilderError) -> KeyPair {
        guard enabled else { return try KeyPair.generate(kind) }
        let entry = Entry(kind: kind, role: role)
        let lock = entryLocks.withLock { locks in
            if let known = locks[entry] { return known }
            let made = LabLock(())
            locks[entry] = made
            return made
        }
        // Generated while the entry's lock is held (see `entryLocks`).
        let outcome = lock.withLock { _ -> Result<KeyPair, BuilderError> in
            if let known = pool.withLock({ $0[entry] }) { return .success(known) }
            let file = fileName(entry).flatMap { name in usableDirectory().map { $0 + "/" + name } }
            if let file, let stored = Self.read(file, kind: kind) {
                pool.withLock { $0[entry] = stored }
                return .success(stored)
            }
            do throws(BuilderError) {
                let fresh = try KeyPair.generate(kind)
                if let file { Self.write(fresh.privateKeyPEM(), to: file) }
                pool.withLock { $0[entry] = fresh }
                return .success(fresh)
            } catch {
                return .failure(error)
            }
        }
        return try outcome.get()
    }

    /// `KIND.ROLE.pem`, e.g. `rsa-2048.no-forward-secrecy.pem`; nil for a role that cannot name
    /// a file (such a key is kept in memory only).
    func fileName(_ entry: Entry) -> String? {
        let role = entry.role.utf8
        guard (1...64).contains(role.count),
            role.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D })
        else { return nil }
        let kind: String
        switch entry.kind {
        case .ecP256: kind = "ec-p256"
        case .ecP384: kind = "ec-p384"
        case .ecP521: kind = "ec-p521"
        case .rsa(let bits): kind = "rsa-\(bits)"
        case .ed25519: kind = "ed25519"
        case .ed448: kind = "ed448"
        }
        return kind + "." + entry.role + ".pem"
    }

    /// The cache directory, created (with its parents) mode 0700 when missing; nil when there is
    /// none or it is not a directory of this user's (then nothing is read or written).
    func usableDirectory() -> String? {
        guard let directory else { return nil }
        var path = ""
        for component in directory.split(separator: "/") {
            path += "/" + component
            // EEXIST and the rest alike: what matters is the check of the last one below.
            _ = mkdir(path, 0o700)
        }
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            return nil
        }
        // Our own directory made readable to others (by hand, or by an old umask): make it private.
        if info.st_mode & 0o077 != 0 && chmod(directory, 0o700) != 0 { return nil }
        return directory
    }

    /// The key in `path` when the file is this user's own private regular file holding a key of
    /// exactly `kind`; nil otherwise.
    static func read(_ path: String, kind: KeyKind) -> KeyPair? {
        // O_NONBLOCK: open(2) of a FIFO would otherwise wait for a writer before fstat could
        // tell it is not a key file (D321); a regular file reads the same either way.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { closeFile(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == geteuid(),
            info.st_mode & 0o077 == 0, info.st_size > 0, info.st_size <= maximumFileBytes
        else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(info.st_size))
        var count = 0
        while count < bytes.count {
            let n = bytes.withUnsafeMutableBytes { readFile(fd, $0.baseAddress! + count, $0.count - count) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return nil }
            count += n
        }
        guard let key = try? KeyPair(privateKeyPEM: String(decoding: bytes, as: UTF8.self)), key.kind == kind else {
            return nil
        }
        return key
    }

    /// Writes `pem` to `path` (mode 0600) through a new file renamed over it, so a process
    /// reading at the same time sees the old key or the new one, never half of one. Best effort:
    /// a key that cannot be kept is simply generated again next time.
    static func write(_ pem: String, to path: String) {
        guard !pem.isEmpty else { return }
        try? FileWriter.write(pem, to: path, mode: 0o600, existing: .replace)
    }
}
