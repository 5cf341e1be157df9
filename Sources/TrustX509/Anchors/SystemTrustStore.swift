import Synchronization
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Where the system anchors come from.
///
/// Mirrors how OpenSSL finds trusted roots (`X509_STORE_set_default_paths`): an optional PEM
/// bundle (`SSL_CERT_FILE`) and any number of directories (`SSL_CERT_DIR`, colon-separated,
/// default `/etc/ssl/certs`) laid out by `c_rehash` / `openssl rehash`, where `<hash>.<n>` links
/// to the n-th certificate whose subject hashes to `<hash>` (see `subjectHash(_:)`).
///
/// Nothing is read at construction. A lookup by subject opens only the `<hash>.0`, `<hash>.1`, ...
/// files for that subject's hash and memoizes the result per hash, so an evaluation that asks
/// for one or two issuers parses one or two roots, not all ~140. The bundle, having no index, is
/// read whole on first use (once) but only indexed: each block is decoded as far as its subject,
/// and a certificate is fully decoded only when a lookup wants it (see `Indexed`). Unreadable or
/// malformed files and blocks are skipped silently; no lookup throws or traps.
///
/// Cost (release build, medians, this shared 2-core machine under load, warm page cache):
/// `fromEnvironment()` plus one lookup is 22-41 us with the Debian directory alone for a hit;
/// a miss is 56-92 us, because it lists the directory once to learn whether it is hashed. With
/// `SSL_CERT_FILE` also naming Debian's 214 KB `ca-certificates.crt` (as this machine's
/// environment does) it is 0.71-0.86 ms, nearly all of it indexing the bundle (0.41-0.64 ms);
/// decoding the bundle with `PEM.blocks` and parsing its ~140 roots would cost 5-7 ms instead.
///
/// Thread-safe: all caches live behind one `Mutex`; files are read while it is held, so
/// concurrent first lookups serialise (later ones are dictionary hits).
public final class SystemTrustStore: Sendable {
    /// The directory OpenSSL uses on Debian when `SSL_CERT_DIR` is unset.
    public static let defaultCertificateDirectory = "/etc/ssl/certs"

    /// The PEM bundle consulted, if any (`SSL_CERT_FILE`).
    public let certFile: String?
    /// The directories consulted, in order (`SSL_CERT_DIR` or the default).
    public let certDirectories: [String]
    /// How `--store` named it: `openssl` for OpenSSL's default paths, else the path given.
    public let storeName: String

    private let state: Mutex<State>

    /// How a directory is organised, found out lazily.
    private enum DirectoryMode: Sendable {
        /// Not looked at yet.
        case unknown
        /// It holds OpenSSL hash links: look up `<hash>.<n>` only.
        case hashed
        /// It holds no hash links: every *.pem/*.crt is indexed on first lookup.
        case unhashed
        /// It cannot be opened.
        case missing
    }

    /// One certificate found in a file but not decoded yet: where its bytes lie.
    struct Pending: Sendable {
        enum Encoding: Sendable { case der, pem, trustedPEM }
        /// The whole file (shared, not copied, by every entry of that file).
        let file: [UInt8]
        /// The DER certificate, or the base64 body of its PEM block.
        let range: Range<Int>
        let encoding: Encoding

        /// The decoded certificate; nil when it does not decode.
        func decode() -> Certificate? {
            let der: [UInt8]
            switch encoding {
            case .der:
                der = Array(file[range])
            case .pem, .trustedPEM:
                guard let body = Base64.decodePrefix(file[range]) else { return nil }
                // OpenSSL trust settings follow the certificate in a TRUSTED CERTIFICATE.
                der = encoding == .trustedPEM ? CertificateLoader.firstElement(body) : body
            }
            return try? Certificate(der: der)
        }
    }

    /// The certificates of a source that has no hash links (the bundle, an unhashed directory),
    /// indexed by subject hash without being decoded: each PEM block's base64 is decoded only as
    /// far as the subject name (a few hundred bytes), and the subject is hashed straight from its
    /// DER. A full decode happens only for the blocks a lookup asks for.
    struct Indexed: Sendable {
        var order: [Pending] = []
        var byHash: [String: [Pending]] = [:]

        mutating func add(file path: String) {
            guard let bytes = try? CertificateLoader.readFile(path) else { return }
            for pending in SystemTrustStore.certificateLocations(in: bytes) {
                guard let hash = SystemTrustStore.subjectHash(of: pending) else { continue }
                order.append(pending)
                byHash[hash, default: []].append(pending)
            }
        }
    }

    private struct State: Sendable {
        var bundle: Indexed?
        var modes: [DirectoryMode]
        var unhashedIndexes: [Int: Indexed] = [:]
        var byHash: [String: [Certificate]] = [:]
        var all: [Certificate]?
    }

    /// A store reading the PEM bundle at `certFile` (if non-nil and non-empty) and the hashed
    /// directories `certDirectories`, in that order. Empty and repeated directory entries are
    /// dropped, as OpenSSL does. Pass `certDirectories: []` for a bundle-only store.
    /// Nothing is read until the first query. `name` is how reports name the store.
    public init(certFile: String?, certDirectories: [String], name: String = "openssl") {
        self.storeName = name
        self.certFile = (certFile?.isEmpty ?? true) ? nil : certFile
        var dirs: [String] = []
        for dir in certDirectories where !dir.isEmpty && !dirs.contains(dir) {
            dirs.append(dir)
        }
        self.certDirectories = dirs
        self.state = Mutex(State(modes: Array(repeating: .unknown, count: dirs.count)))
    }

    /// The store the process environment describes, as OpenSSL's default paths do:
    /// the bundle named by `SSL_CERT_FILE` (if set), plus the directories in `SSL_CERT_DIR`
    /// (colon-separated), else `/etc/ssl/certs`.
    ///
    /// Like OpenSSL, setting `SSL_CERT_FILE` alone does not drop the default directory. OpenSSL's
    /// default *file* (`OPENSSLDIR/cert.pem`, on Debian a link to
    /// `/etc/ssl/certs/ca-certificates.crt`) is not consulted: on Debian it concatenates the very
    /// roots the directory holds, and reading it would mean parsing all of them on every run.
    public static func fromEnvironment() -> SystemTrustStore {
        let file = environmentValue("SSL_CERT_FILE")
        let dirs: [String]
        if let value = environmentValue("SSL_CERT_DIR") {
            dirs = value.split(separator: ":", omittingEmptySubsequences: true).map(String.init)
        } else {
            dirs = [defaultCertificateDirectory]
        }
        return SystemTrustStore(certFile: file, certDirectories: dirs)
    }

    private static func environmentValue(_ name: String) -> String? {
        guard let raw = getenv(name) else { return nil }
        let value = String(cString: raw)
        return value.isEmpty ? nil : value
    }

    /// A one-line description of where roots come from, for reports, e.g.
    /// `/etc/ssl/certs (hashed)` or `/tmp/roots.pem (bundle) + /etc/ssl/certs (hashed)`.
    /// Classifying a directory lists it once (stopping at the first hash link); no certificate
    /// is parsed.
    public var location: String {
        var parts: [String] = []
        if let certFile { parts.append("\(certFile) (bundle)") }
        for (i, dir) in certDirectories.enumerated() {
            switch mode(ofDirectory: i) {
            case .hashed: parts.append("\(dir) (hashed)")
            case .unhashed: parts.append("\(dir) (no hash links: every *.pem/*.crt)")
            case .missing, .unknown: parts.append("\(dir) (missing)")
            }
        }
        return parts.isEmpty ? "no system roots configured" : parts.joined(separator: " + ")
    }

    /// Certificates whose subject matches `name` (RFC 5280 name matching via
    /// `DistinguishedName.matches`), from the bundle first, then each directory in order,
    /// without duplicates. Loaded on first use and memoized per subject hash.
    public func certificates(withSubject name: DistinguishedName) -> [Certificate] {
        candidates(hash: Self.subjectHash(name)).filter { $0.subject.matches(name) }
    }

    /// Whether this exact certificate (same DER, compared by SHA-256) is a system root.
    /// A certificate with a root's subject but another key or signature is not.
    public func contains(_ certificate: Certificate) -> Bool {
        candidates(hash: Self.subjectHash(certificate.subject)).contains { $0.sha256 == certificate.sha256 }
    }

    /// Every root, without duplicates: the bundle's in file order, then each directory's
    /// (hashed: the `<hash>.<n>` entries in name order; unhashed: `*.pem`/`*.crt` in name order).
    /// Parses them all: for listing, not for evaluation.
    public func allCertificates() -> [Certificate] {
        state.withLock { state in
            if let all = state.all { return all }
            var out: [Certificate] = []
            var seen = Set<[UInt8]>()
            func add(_ certs: [Certificate]) {
                for cert in certs where seen.insert(cert.sha256).inserted { out.append(cert) }
            }
            if certFile != nil { add(bundle(&state).order.compactMap { $0.decode() }) }
            for (i, dir) in certDirectories.enumerated() {
                switch mode(ofDirectory: i, &state) {
                case .hashed:
                    let names = (Self.listDirectory(dir) ?? []).filter(Self.isHashLinkName).sorted()
                    for name in names { add(Self.loadFile(dir + "/" + name) ?? []) }
                case .unhashed:
                    add(unhashedIndex(i, &state).order.compactMap { $0.decode() })
                case .missing, .unknown:
                    continue
                }
            }
            state.all = out
            return out
        }
    }

    // MARK: - Lookup

    /// Every certificate whose subject hashes to `hash`, memoized.
    private func candidates(hash: String) -> [Certificate] {
        state.withLock { state in
            if let hit = state.byHash[hash] { return hit }
            var out: [Certificate] = []
            var seen = Set<[UInt8]>()
            func add(_ certs: [Certificate]) {
                for cert in certs where seen.insert(cert.sha256).inserted { out.append(cert) }
            }
            for (i, dir) in certDirectories.enumerated() {
                switch state.modes[i] {
                case .missing:
                    continue
                case .unhashed:
                    add((unhashedIndex(i, &state).byHash[hash] ?? []).compactMap { $0.decode() })
                case .hashed, .unknown:
                    let (found, any) = Self.loadHashLinks(dir: dir, hash: hash)
                    if any {
                        state.modes[i] = .hashed
                        add(found)
                    } else if mode(ofDirectory: i, &state) == .unhashed {
                        add((unhashedIndex(i, &state).byHash[hash] ?? []).compactMap { $0.decode() })
                    }
                }
            }
            // The bundle is consulted only when the directories have nothing under this hash:
            // on Debian SSL_CERT_FILE names ca-certificates.crt, which repeats the hashed
            // directory, and indexing it costs ~0.7 ms per process against ~30 us for a hash-link
            // lookup. A root present only in the bundle is still found; one that shares its
            // subject with a directory root is not (docs/DECISIONS.md D19).
            if out.isEmpty && certFile != nil {
                add((bundle(&state).byHash[hash] ?? []).compactMap { $0.decode() })
            }
            state.byHash[hash] = out
            return out
        }
    }

    /// Reads `dir/hash.0`, `dir/hash.1`, ... until one is missing, as OpenSSL's `by_dir` lookup
    /// does (it stops at the first suffix that does not exist). A file that exists but does not
    /// parse is skipped and the walk goes on. `any` says whether `hash.0` existed at all.
    private static func loadHashLinks(dir: String, hash: String) -> (certificates: [Certificate], any: Bool) {
        var out: [Certificate] = []
        var suffix = 0
        while suffix < 10_000 {
            let path = "\(dir)/\(hash).\(suffix)"
            guard isRegularFile(path) else { break }
            out += loadFile(path) ?? []
            suffix += 1
        }
        return (out, suffix > 0)
    }

    /// The bundle's index, built on first use. `SSL_CERT_FILE` is often the distribution's
    /// whole bundle (it is on this development machine), so it is scanned, not decoded: see `Indexed`.
    private func bundle(_ state: inout State) -> Indexed {
        if let bundle = state.bundle { return bundle }
        var index = Indexed()
        if let certFile { index.add(file: certFile) }
        state.bundle = index
        return index
    }

    private func unhashedIndex(_ i: Int, _ state: inout State) -> Indexed {
        if let index = state.unhashedIndexes[i] { return index }
        // Fallback for a directory that was never c_rehash'ed (no `<hash>.<n>` names at all):
        // OpenSSL would find nothing in it, but a hand-made roots directory is plainly meant to
        // be used, so every *.pem and *.crt file in it is read once, on the first lookup that
        // reaches it, and indexed by subject hash (certificates are decoded only when asked for).
        let dir = certDirectories[i]
        var index = Indexed()
        for name in (Self.listDirectory(dir) ?? []).filter(Self.isCertificateFileName).sorted() {
            let path = dir + "/" + name
            if Self.isRegularFile(path) { index.add(file: path) }
        }
        state.unhashedIndexes[i] = index
        return index
    }

    private func mode(ofDirectory i: Int) -> DirectoryMode {
        state.withLock { state in mode(ofDirectory: i, &state) }
    }

    /// Classifies directory `i` once: hashed if any entry is named like a hash link.
    private func mode(ofDirectory i: Int, _ state: inout State) -> DirectoryMode {
        if case .unknown = state.modes[i] {
            state.modes[i] = Self.classify(certDirectories[i])
        }
        return state.modes[i]
    }

    private static func classify(_ dir: String) -> DirectoryMode {
        guard let handle = opendir(dir) else { return .missing }
        defer { closedir(handle) }
        while let entry = readdir(handle) {
            if isHashLinkName(entryName(entry)) { return .hashed }
        }
        return .unhashed
    }
}

extension SystemTrustStore: IssuerSource {}
