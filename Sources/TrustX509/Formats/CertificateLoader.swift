import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads certificates from PEM (one or many), DER, PKCS#7 (.p7b/.p7c) and PKCS#12 (.p12/.pfx).
public enum CertificateLoader {
    /// Files larger than this are refused before reading: no certificate bundle is this big.
    public static let maximumFileSize = 16 * 1024 * 1024

    /// Why a PKCS#12 file is refused before OpenSSL parses it (too many rounds of password-based
    /// key derivation, D46), or nil.
    public static func pkcs12IterationRefusal(_ der: [UInt8]) -> String? { PKCS12Iterations.refusal(der) }

    /// Loads every certificate in the file at `path`, in file order.
    public static func load(path: String, password: String? = nil) throws(LoadError) -> [Certificate] {
        try load(path: path, password: password, allowance: nil)
    }

    /// Loads every certificate in the file at `path`, charging its size to `allowance`: the
    /// input cap then holds for all the files of a run together.
    public static func load(path: String, password: String? = nil, allowance: InputAllowance?) throws(LoadError)
        -> [Certificate]
    {
        let bytes = try contents(of: path, allowance)
        return try decode(bytes, password: password, path: path)
    }

    /// The bytes of `path`, charged to `allowance` when there is one.
    static func contents(of path: String, _ allowance: InputAllowance?) throws(LoadError) -> [UInt8] {
        if let allowance { return try allowance.read(path) }
        return try readFile(path)
    }

    /// Decodes the bytes of the file at `path`, attributing errors to it.
    static func decode(_ bytes: [UInt8], password: String?, path: String) throws(LoadError) -> [Certificate] {
        do {
            return try decode(bytes, password: password, name: path)
        } catch let e as DecodingError {
            throw .malformed(e.file == nil ? e.inFile(path) : e)
        } catch let e as LoadError {
            throw e
        } catch {
            throw .malformed(DecodingError(offset: 0, reason: "\(error)", file: path))
        }
    }

    /// Loads the certificates of a chain file as Apple reads a list of certificates: one that
    /// cannot be read among several in a PEM bundle is left out and reported, not fatal. The
    /// load fails only when nothing can be read.
    /// - Returns: The readable certificates in file order, and why each other one was not.
    public static func loadChain(path: String, password: String? = nil, allowance: InputAllowance? = nil)
        throws(LoadError) -> (certificates: [Certificate], unreadable: [DecodingError])
    {
        try loadChain(bytes: try contents(of: path, allowance), name: path, password: password)
    }

    /// `loadChain(path:)` for bytes already read (standard input), errors attributed to `name`.
    public static func loadChain(bytes: [UInt8], name path: String, password: String? = nil)
        throws(LoadError) -> (certificates: [Certificate], unreadable: [DecodingError])
    {
        guard PEM.looksLikePEM(bytes), let blocks = try? PEM.blocks(in: bytes),
            blocks.filter({ certificateLabels.contains($0.label) }).count > 1
        else { return (try decode(bytes, password: password, path: path), []) }
        var certificates: [Certificate] = []
        var unreadable: [DecodingError] = []
        for block in blocks where certificateLabels.contains(block.label) {
            let der = block.label == "TRUSTED CERTIFICATE" ? firstElement(block.der) : block.der
            do {
                certificates.append(try Certificate(der: der))
            } catch {
                unreadable.append(
                    DecodingError(
                        offset: error.offset, reason: "in PEM block at byte \(block.offset): \(error.reason)",
                        file: path))
            }
        }
        if certificates.isEmpty { throw .malformed(unreadable[0]) }
        return (certificates, unreadable)
    }

    package static let certificateLabels: Set<String> = ["CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE"]

    /// Decodes certificates from bytes in any supported format.
    public static func decode(_ bytes: [UInt8], password: String? = nil, name: String = "input") throws -> [Certificate]
    {
        if PEM.looksLikePEM(bytes) {
            let blocks = try PEM.blocks(in: bytes)
            var certs: [Certificate] = []
            for block in blocks {
                switch block.label {
                case "CERTIFICATE", "X509 CERTIFICATE", "TRUSTED CERTIFICATE":
                    do {
                        // A TRUSTED CERTIFICATE carries OpenSSL trust settings after the certificate.
                        let der = block.label == "TRUSTED CERTIFICATE" ? firstElement(block.der) : block.der
                        certs.append(try Certificate(der: der))
                    } catch {
                        throw DecodingError(
                            offset: error.offset, reason: "in PEM block at byte \(block.offset): \(error.reason)")
                    }
                case "PKCS7":
                    certs += try PKCS7.certificates(block.der)
                default:
                    continue
                }
            }
            if certs.isEmpty { throw DecodingError(offset: 0, reason: "no CERTIFICATE block in PEM input") }
            return certs
        }
        guard let first = bytes.first else { throw DecodingError(offset: 0, reason: "empty input") }
        guard first == DERTag.sequence else {
            throw DecodingError(offset: 0, reason: "neither PEM nor DER (first byte 0x\(hex(first)))")
        }
        if PKCS7.isPKCS7(bytes) { return try PKCS7.certificates(bytes) }
        if PKCS12.isPKCS12(bytes) {
            guard let password else {
                throw LoadError.password(path: name, reason: "PKCS#12 file needs --password")
            }
            return try PKCS12.certificates(bytes, password: password, name: name)
        }
        return [try Certificate(der: bytes)]
    }

    package static func firstElement(_ der: [UInt8]) -> [UInt8] {
        var r = DERReader(der)
        guard let node = try? r.readNode() else { return der }
        return Array(der[node.fullRange])
    }

    /// Reads a whole file with POSIX calls (no Foundation on this path), refusing huge files.
    public static func readFile(_ path: String) throws(LoadError) -> [UInt8] {
        try readFile(path, maximumBytes: maximumFileSize)
    }

    /// Reads at most the first `count` bytes of a file: enough to tell its format (a PEM block
    /// after `openssl x509 -text`'s dump of a large certificate starts within 64 KiB) without
    /// reading, or charging to a run's allowance, a file that was already loaded once.
    public static func readHead(_ path: String, count: Int = 65536) throws(LoadError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        return try readAll(fd, path: path, maximumBytes: max(0, count), truncating: true)
    }

    /// The longest a pipe or FIFO given as a file may take to end: it is read as far as its writer
    /// closes it (`--chain <(command)`), and one whose writer never writes or never closes is
    /// refused after this long instead of hanging the run (D321).
    public static let maximumPipeWait: Duration = .seconds(10)

    /// Reads a whole file, refusing one larger than `maximumBytes` before or while reading it.
    static func readFile(_ path: String, maximumBytes: Int) throws(LoadError) -> [UInt8] {
        let fd = try openForReading(path)
        defer { close(fd) }
        return try readAll(fd, name: path, maximumBytes: maximumBytes)
    }

    /// Reads `fd` to its end (a file, or standard input's pipe), refusing more than
    /// `maximumBytes`; errors name `name`.
    static func readAll(_ fd: Int32, name path: String, maximumBytes: Int) throws(LoadError) -> [UInt8] {
        var st = stat()
        guard fstat(fd, &st) == 0 else { throw .unreadable(path: path, reason: errnoText()) }
        if st.st_size > maximumBytes {
            throw .unreadable(path: path, reason: "larger than \(maximumFileSize / 1024 / 1024) MiB")
        }
        return try readAll(fd, path: path, maximumBytes: maximumBytes, reserving: Int(st.st_size))
    }

    /// Opens `path` without blocking and checks its type before anything is read: open(2) of a
    /// FIFO without O_NONBLOCK waits for a writer, before any check could run (D321).
    static func openForReading(_ path: String) throws(LoadError) -> Int32 {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw .unreadable(path: path, reason: errnoText()) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            let why = errnoText()
            close(fd)
            throw .unreadable(path: path, reason: why)
        }
        switch st.st_mode & S_IFMT {
        case S_IFDIR:
            close(fd)
            throw .unreadable(path: path, reason: "is a directory")
        case S_IFSOCK:
            close(fd)
            throw .unreadable(path: path, reason: "is a socket, not a file")
        default:
            return fd
        }
    }

    /// Reads `fd` to its end. A pipe that has nothing yet is waited for with poll(2), at most
    /// `maximumPipeWait` in all; a FIFO nobody writes to reads as empty at once.
    static func readAll(
        _ fd: Int32, path: String, maximumBytes: Int, reserving: Int = 0, truncating: Bool = false
    ) throws(LoadError) -> [UInt8] {
        let giveUp = ContinuousClock.now + maximumPipeWait
        var out: [UInt8] = []
        out.reserveCapacity(min(max(0, reserving), maximumBytes))
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let want = truncating ? min(chunk.count, maximumBytes - out.count) : chunk.count
            if want == 0 { break }
            let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, want) }
            if n < 0 {
                if errno == EINTR { continue }
                guard errno == EAGAIN || errno == EWOULDBLOCK else {
                    throw .unreadable(path: path, reason: errnoText())
                }
                let left = ContinuousClock.now.duration(to: giveUp)
                guard left > .zero else {
                    throw .unreadable(
                        path: path,
                        reason: "a pipe that did not end within \(maximumPipeWait.components.seconds) s")
                }
                var p = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                // At most a second at a time, so that the time left is measured again.
                let ms = min(
                    left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1, 1000)
                _ = poll(&p, 1, Int32(ms))
                continue
            }
            if n == 0 { break }
            out += chunk[0..<n]
            if out.count > maximumBytes {
                throw .unreadable(path: path, reason: "larger than \(maximumFileSize / 1024 / 1024) MiB")
            }
        }
        return out
    }

    static func errnoText() -> String {
        guard let s = strerror(errno) else { return "error \(errno)" }
        return String(cString: s)
    }
}
