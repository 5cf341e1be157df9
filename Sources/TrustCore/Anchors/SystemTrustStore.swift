import Synchronization

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
    /// Nothing is read until the first query.
    public init(certFile: String?, certDirectories: [String]) {
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

    // MARK: - Files

    /// Certificates in one file (PEM with any number of CERTIFICATE / X509 CERTIFICATE /
    /// TRUSTED CERTIFICATE blocks, or one DER certificate). Nil when the file cannot be read;
    /// blocks that do not decode are skipped.
    static func loadFile(_ path: String) -> [Certificate]? {
        guard let bytes = try? CertificateLoader.readFile(path) else { return nil }
        return certificateLocations(in: bytes).compactMap { $0.decode() }
    }

    private static let certificateLabels: [(label: [UInt8], encoding: Pending.Encoding)] = [
        (Array("CERTIFICATE".utf8), .pem),
        (Array("X509 CERTIFICATE".utf8), .pem),
        (Array("TRUSTED CERTIFICATE".utf8), .trustedPEM),
    ]

    /// Where the certificates in a file's bytes lie: every certificate PEM block's body, or the
    /// whole file when it is not PEM (a DER certificate). Other PEM blocks are passed over; a
    /// block without its END line ends the scan.
    static func certificateLocations(in bytes: [UInt8]) -> [Pending] {
        let begin = Array("-----BEGIN ".utf8)
        let dashes = Array("-----".utf8)
        var out: [Pending] = []
        var sawPEM = false
        var i = 0
        while let start = ByteSearch.find(begin, in: bytes, from: i) {
            sawPEM = true
            let labelStart = start + begin.count
            guard let labelEnd = ByteSearch.find(dashes, in: bytes, from: labelStart) else { break }
            let label = Array(bytes[labelStart..<labelEnd])
            let end = Array("-----END ".utf8) + label + dashes
            let bodyStart = labelEnd + dashes.count
            guard let endAt = ByteSearch.find(end, in: bytes, from: bodyStart) else { break }
            if let kind = certificateLabels.first(where: { $0.label == label }) {
                out.append(Pending(file: bytes, range: bodyStart..<endAt, encoding: kind.encoding))
            }
            i = endAt + end.count
        }
        if !sawPEM && bytes.first == DERTag.sequence {
            out.append(Pending(file: bytes, range: 0..<bytes.count, encoding: .der))
        }
        return out
    }

    /// The subject hash of a not-yet-decoded certificate, from as little base64 as possible.
    static func subjectHash(of pending: Pending, prefix: Int = 768) -> String? {
        switch pending.encoding {
        case .der:
            return subjectHash(certificateDER: pending.file[pending.range])
        case .pem, .trustedPEM:
            // The subject ends within the first few hundred bytes of nearly every certificate.
            let text = pending.file[pending.range]
            if let prefix = Base64.decodePrefix(text, limit: prefix),
                let hash = subjectHash(certificateDER: prefix[...])
            {
                return hash
            }
            guard let full = Base64.decodePrefix(text) else { return nil }
            return subjectHash(certificateDER: full[...])
        }
    }

    /// Hashes the subject found by walking Certificate > tbsCertificate > [version], serial,
    /// signature, issuer, validity, subject. Only headers are read, so a prefix of the DER
    /// suffices; nil when the walk fails (truncated or not a certificate).
    static func subjectHash(certificateDER der: ArraySlice<UInt8>) -> String? {
        der.withUnsafeBufferPointer { buf -> String? in
            guard let cert = tlvHeader(buf, at: 0, allowTruncated: true), cert.tag == DERTag.sequence,
                let tbs = tlvHeader(buf, at: cert.contentStart, allowTruncated: true), tbs.tag == DERTag.sequence
            else { return nil }
            var pos = tbs.contentStart
            guard var node = tlvHeader(buf, at: pos) else { return nil }
            if node.tag == DERTag.contextSpecific(0, constructed: true) {
                pos = node.end
                guard let next = tlvHeader(buf, at: pos) else { return nil }
                node = next
            }
            for expected in [DERTag.integer, DERTag.sequence, DERTag.sequence, DERTag.sequence] {
                guard node.tag == expected else { return nil }
                pos = node.end
                guard let next = tlvHeader(buf, at: pos) else { return nil }
                node = next
            }
            guard node.tag == DERTag.sequence,
                let canonical = canonicalEncoding(UnsafeBufferPointer(rebasing: buf[node.start..<node.end]))
            else { return nil }
            return hashString(canonical)
        }
    }

    static func isRegularFile(_ path: String) -> Bool {
        var st = stat()
        guard stat(path, &st) == 0 else { return false }
        return (st.st_mode & S_IFMT) == S_IFREG
    }

    /// The names in `dir` (without `.` and `..`), or nil when it cannot be opened.
    static func listDirectory(_ dir: String) -> [String]? {
        guard let handle = opendir(dir) else { return nil }
        defer { closedir(handle) }
        var names: [String] = []
        while let entry = readdir(handle) {
            let name = entryName(entry)
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    private static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
        let offset = MemoryLayout<dirent>.offset(of: \dirent.d_name) ?? 0
        return String(cString: (UnsafeRawPointer(entry) + offset).assumingMemoryBound(to: CChar.self))
    }

    /// `<8 lowercase hex digits>.<decimal>`: the names `c_rehash` / `openssl rehash` give
    /// certificate links (CRL links, `.r<n>`, do not count).
    static func isHashLinkName(_ name: String) -> Bool {
        let bytes = Array(name.utf8)
        guard bytes.count >= 10, bytes[8] == UInt8(ascii: ".") else { return false }
        let isHex = { (b: UInt8) in (b >= 0x30 && b <= 0x39) || (b >= 0x61 && b <= 0x66) }
        return bytes[0..<8].allSatisfy(isHex) && bytes[9...].allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }

    static func isCertificateFileName(_ name: String) -> Bool {
        let lower = name.lowercased()
        return lower.hasSuffix(".pem") || lower.hasSuffix(".crt")
    }

    // MARK: - Subject hash

    /// The subject hash OpenSSL uses for `name` (8 lowercase hex digits): what
    /// `X509_NAME_hash_ex` / `openssl x509 -subject_hash` print and what `c_rehash` names links by.
    ///
    /// It is the first four bytes, read little-endian, of the SHA-1 of OpenSSL's canonical name
    /// encoding (`x509_name_canon`), reimplemented here from the name's DER: each RDN becomes a
    /// DER SET OF its attributes (sorted by encoding); a value of type UTF8String,
    /// PrintableString, TeletexString (as Latin-1), IA5String, VisibleString, BMPString or
    /// UniversalString is converted to UTF-8, stripped of leading and trailing whitespace, has
    /// internal whitespace runs collapsed to one space and ASCII letters lowered, and is
    /// re-encoded as a UTF8String; any other value is kept as encoded. The RDN SETs are
    /// concatenated with no outer SEQUENCE.
    ///
    /// Why not ask OpenSSL: `d2i_X509_NAME` + `X509_NAME_hash_ex` cost 11.8 us per name
    /// against 1.9 us for this Swift version (1.4 us of it the canonical encoding) (medians over the Debian roots' subjects,
    /// release build, this 2-core machine). Both agree on every Debian root and on the whitespace,
    /// case, string-type and multi-valued-RDN cases in `SystemTrustStoreTests`, which also check
    /// every root against the `openssl` CLI.
    public static func subjectHash(_ name: DistinguishedName) -> String {
        // The DER comes from the strict decoder, so the walk cannot fail; the empty encoding
        // (an empty name's) is the fallback all the same.
        let canonical = name.der.withUnsafeBufferPointer { canonicalEncoding($0) } ?? []
        return hashString(canonical)
    }

    /// The hash string of a canonical encoding. `Digest.sha1` runs the low-level `SHA1_*` calls:
    /// OpenSSL 3.0's one-shot `SHA1()` fetches the algorithm on every call (`EVP_Q_digest`) and
    /// costs ~3 us more per name than the whole canonicalisation.
    private static func hashString(_ canonical: [UInt8]) -> String {
        let digest = Digest.sha1(canonical)
        return hex32(UInt32(digest[0]) | UInt32(digest[1]) << 8 | UInt32(digest[2]) << 16 | UInt32(digest[3]) << 24)
    }

    /// `%08lx`.
    static func hex32(_ v: UInt32) -> String {
        String(unsafeUninitializedCapacity: 8) { out in
            for i in 0..<8 {
                let nibble = UInt8((v >> (28 - 4 * UInt32(i))) & 0xF)
                out[i] = nibble < 10 ? 0x30 + nibble : 0x57 + nibble
            }
            return 8
        }
    }

    /// One TLV header: tag, where the content starts and where the element ends.
    private struct Header {
        var tag: UInt8
        var start: Int
        var contentStart: Int
        var end: Int
    }

    /// Reads the header at `pos` (single-byte tag, definite length). The element must fit in
    /// `buf` unless `allowTruncated`.
    private static func tlvHeader(_ buf: UnsafeBufferPointer<UInt8>, at pos: Int, allowTruncated: Bool = false)
        -> Header?
    {
        guard pos + 2 <= buf.count else { return nil }
        let tag = buf[pos]
        guard tag & 0x1F != 0x1F else { return nil }
        var length = Int(buf[pos + 1])
        var contentStart = pos + 2
        if length >= 0x80 {
            let count = length & 0x7F
            guard count >= 1, count <= 4, contentStart + count <= buf.count else { return nil }
            length = 0
            for k in 0..<count { length = length << 8 | Int(buf[contentStart + k]) }
            contentStart += count
        }
        let end = contentStart + length
        guard allowTruncated || end <= buf.count else { return nil }
        return Header(tag: tag, start: pos, contentStart: contentStart, end: end)
    }

    /// Appends a DER tag and definite length.
    private static func appendHeader(_ tag: UInt8, length: Int, to out: inout [UInt8]) {
        out.append(tag)
        if length < 0x80 {
            out.append(UInt8(length))
        } else if length < 0x100 {
            out.append(0x81)
            out.append(UInt8(length))
        } else if length < 0x1_0000 {
            out.append(0x82)
            out.append(UInt8(length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        } else {
            out.append(0x83)
            out.append(UInt8(truncatingIfNeeded: length >> 16))
            out.append(UInt8(truncatingIfNeeded: length >> 8))
            out.append(UInt8(truncatingIfNeeded: length))
        }
    }

    private static func headerSize(_ length: Int) -> Int {
        length < 0x80 ? 2 : length < 0x100 ? 3 : length < 0x1_0000 ? 4 : 5
    }

    /// OpenSSL's canonical encoding of the Name whose DER is `der` (see `subjectHash(_:)`);
    /// nil when the DER does not have a Name's shape.
    static func canonicalEncoding(_ der: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard let name = tlvHeader(der, at: 0), name.tag == DERTag.sequence, name.end == der.count else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(der.count)
        var value: [UInt8] = []
        var multi: [[UInt8]] = []
        var pos = name.contentStart
        while pos < name.end {
            guard let set = tlvHeader(der, at: pos), set.tag == DERTag.set, set.end <= name.end else { return nil }
            multi.removeAll(keepingCapacity: true)
            var p = set.contentStart
            guard p < set.end else { return nil }
            while p < set.end {
                guard let atv = tlvHeader(der, at: p), atv.tag == DERTag.sequence, atv.end <= set.end,
                    let oid = tlvHeader(der, at: atv.contentStart), oid.tag == DERTag.oid,
                    let val = tlvHeader(der, at: oid.end), val.end == atv.end
                else { return nil }
                let oidBytes = UnsafeBufferPointer(rebasing: der[oid.start..<oid.end])
                let isCanonical = canonicalValue(
                    tag: val.tag, raw: UnsafeBufferPointer(rebasing: der[val.contentStart..<val.end]), into: &value)
                let valueSize = isCanonical ? headerSize(value.count) + value.count : val.end - val.start
                let entryContent = oidBytes.count + valueSize
                // A single-valued RDN (nearly all) is written straight out; a multi-valued one is
                // collected and sorted first.
                let single = p == set.contentStart && atv.end == set.end
                var entry: [UInt8] = []
                if single {
                    appendHeader(DERTag.set, length: headerSize(entryContent) + entryContent, to: &out)
                } else {
                    entry.reserveCapacity(headerSize(entryContent) + entryContent)
                }
                func emit(_ target: inout [UInt8]) {
                    appendHeader(DERTag.sequence, length: entryContent, to: &target)
                    target.append(contentsOf: oidBytes)
                    if isCanonical {
                        appendHeader(DERTag.utf8String, length: value.count, to: &target)
                        target.append(contentsOf: value)
                    } else {
                        target.append(contentsOf: UnsafeBufferPointer(rebasing: der[val.start..<val.end]))
                    }
                }
                if single {
                    emit(&out)
                } else {
                    emit(&entry)
                    multi.append(entry)
                }
                p = atv.end
            }
            if !multi.isEmpty {
                // DER SET OF: ascending order of the encodings (OpenSSL's der_cmp: memcmp over
                // the common length, then the shorter first).
                multi.sort { $0.lexicographicallyPrecedes($1) }
                appendHeader(DERTag.set, length: multi.reduce(0) { $0 + $1.count }, to: &out)
                for entry in multi { out.append(contentsOf: entry) }
            }
            pos = set.end
        }
        return out
    }

    /// `asn1_string_canon`: false for types OpenSSL copies unchanged; else true with the
    /// canonical UTF-8 in `out`.
    private static func canonicalValue(tag: UInt8, raw: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) -> Bool {
        out.removeAll(keepingCapacity: true)
        // ossl_isspace: space, \t, \n, \v, \f, \r.
        var pendingSpace = false
        func push(_ b: UInt8) {
            if b == 0x20 || (b >= 0x09 && b <= 0x0D) {
                // Leading whitespace is dropped; a run inside becomes one space, written only
                // when a non-space follows (so trailing whitespace is dropped too).
                pendingSpace = !out.isEmpty
                return
            }
            if pendingSpace {
                out.append(0x20)
                pendingSpace = false
            }
            out.append(b >= 0x41 && b <= 0x5A ? b + 0x20 : b)
        }
        func pushScalar(_ v: UInt32) {
            switch v {
            case 0..<0x80:
                push(UInt8(v))
            case 0x80..<0x800:
                push(0xC0 | UInt8(v >> 6))
                push(0x80 | UInt8(v & 0x3F))
            case 0x800..<0x10000:
                push(0xE0 | UInt8(v >> 12))
                push(0x80 | UInt8((v >> 6) & 0x3F))
                push(0x80 | UInt8(v & 0x3F))
            default:
                // Values OpenSSL refuses (above U+10FFFF) only occur in names it cannot parse.
                push(0xF0 | UInt8((v >> 18) & 0x07))
                push(0x80 | UInt8((v >> 12) & 0x3F))
                push(0x80 | UInt8((v >> 6) & 0x3F))
                push(0x80 | UInt8(v & 0x3F))
            }
        }
        switch tag {
        case DERTag.utf8String:
            // Bytes >= 0x80 are neither spaces nor ASCII capitals, so UTF-8 passes through.
            for b in raw { push(b) }
        case DERTag.printableString, DERTag.teletexString, DERTag.ia5String, DERTag.visibleString:
            // One byte per character, taken as Latin-1 (ASN1_STRING_to_UTF8's MBSTRING_ASC).
            for b in raw { pushScalar(UInt32(b)) }
        case DERTag.bmpString:
            var i = 0
            while i + 1 < raw.count {
                pushScalar(UInt32(raw[i]) << 8 | UInt32(raw[i + 1]))
                i += 2
            }
        case DERTag.universalString:
            var i = 0
            while i + 3 < raw.count {
                pushScalar(
                    UInt32(raw[i]) << 24 | UInt32(raw[i + 1]) << 16 | UInt32(raw[i + 2]) << 8 | UInt32(raw[i + 3]))
                i += 4
            }
        default:
            return false
        }
        return true
    }
}

extension SystemTrustStore: IssuerSource {}
