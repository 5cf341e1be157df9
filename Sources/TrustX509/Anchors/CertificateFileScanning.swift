import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reading the store's files: which files and links count, and where each certificate lies in a
/// file, without decoding it.
extension SystemTrustStore {
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

    static func entryName(_ entry: UnsafeMutablePointer<dirent>) -> String {
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
}
