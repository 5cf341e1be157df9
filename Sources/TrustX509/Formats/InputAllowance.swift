import Synchronization

/// What the files of one run may still add up to: `CertificateLoader.maximumFileSize` for all of
/// them together, so that many files cannot multiply the cap (D46).
public final class InputAllowance: Sendable {
    private let used = Mutex<Int>(0)

    /// A fresh allowance of `CertificateLoader.maximumFileSize`.
    public init() {}

    /// Bytes that may still be read.
    public var remaining: Int { CertificateLoader.maximumFileSize - used.withLock { $0 } }

    func charge(_ bytes: Int) { used.withLock { $0 += bytes } }

    /// Reads the whole file at `path` and charges its size; refused as unreadable, before or while
    /// reading, when it would take the run's files together past the cap. Every input file of a
    /// run (chains, anchors, CRLs, client identities, property lists, pins) is read through one
    /// allowance.
    public func read(_ path: String) throws(LoadError) -> [UInt8] {
        let limit = max(0, remaining)
        do {
            let bytes = try CertificateLoader.readFile(path, maximumBytes: limit)
            charge(bytes.count)
            return bytes
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
