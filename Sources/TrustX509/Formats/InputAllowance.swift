import Synchronization

/// What the files of one run may still add up to: `CertificateLoader.maximumFileSize` for all of
/// them together, so that many files cannot multiply the cap (D46).
public final class InputAllowance: Sendable {
    private let used = Mutex<Int>(0)

    /// A fresh allowance of `CertificateLoader.maximumFileSize`.
    public init() {}

    /// Bytes that may still be read.
    public var remaining: Int { CertificateLoader.maximumFileSize - used.withLock { $0 } }

    /// Reads the whole file at `path` and charges its size; refused as unreadable, before or while
    /// reading, when it would take the run's files together past the cap. Every input file of a
    /// run (chains, anchors, CRLs, client identities, property lists, pins) is read through one
    /// allowance.
    public func read(_ path: String) throws(LoadError) -> [UInt8] {
        try charged(path) { limit throws(LoadError) in try CertificateLoader.readFile(path, maximumBytes: limit) }
    }

    /// Reads standard input (`descriptor`, the process's 0 unless a caller running the command
    /// line in process gives another) to its end and charges its size, as `read(_:)` does a
    /// file's; errors call it `name`.
    public func readStandardInput(name: String, descriptor: Int32 = 0) throws(LoadError) -> [UInt8] {
        try charged(name) { limit throws(LoadError) in
            try CertificateLoader.readAll(descriptor, name: name, maximumBytes: limit)
        }
    }

    private func charged(_ path: String, _ reading: (Int) throws(LoadError) -> [UInt8]) throws(LoadError) -> [UInt8] {
        // The limit is taken and the size charged under one lock: checks of several servers run
        // at once (D213), and two reads that each saw the whole allowance left would pass the cap.
        var limit = 0
        do {
            return try used.withLock { (used: inout Int) throws(LoadError) -> [UInt8] in
                limit = max(0, CertificateLoader.maximumFileSize - used)
                let bytes = try reading(limit)
                used += bytes.count
                return bytes
            }
        } catch {
            if case .unreadable(_, let reason) = error, reason.hasPrefix("larger than"),
                limit < CertificateLoader.maximumFileSize
            {
                throw .unreadable(
                    path: path,
                    reason:
                        "the files of this run together are larger than \(CertificateLoader.maximumFileSize / 1024 / 1024) MiB"
                )
            }
            throw error
        }
    }
}
