import Foundation
import Synchronization

@testable import TrustLab

/// One lab with the default options serving one scenario of each kind of server a training room
/// meets, started by the first test that asks and stopped when the test process exits. The tests
/// that share it only connect to it (none stops it, changes its files or needs options of its
/// own); a test that counts what it served reads the statistics before and after.
enum RoomLab {
    /// TLS 1.3 with P-256, TLS 1.2 only, TLS 1.1 only, an RSA leaf, RSA key exchange, a stapled
    /// OCSP response, the AIA lesson (and its AIA server) and SMTP STARTTLS. The other lessons
    /// differ from these only in their certificates, which the servers treat alike.
    static let scenarios = [
        "good", "tls12-only", "tls11-only", "rsa-2048", "no-forward-secrecy", "revoked-ocsp",
        "missing-intermediate-aia", "smtp-starttls",
    ]

    private static let running = Mutex<Result<Lab, any Error>?>(nil)

    /// The shared lab, started on first use.
    static func shared() throws -> Lab {
        try running.withLock { current in
            if current == nil {
                do {
                    current = .success(try Lab.start(LabOptions(scenarios: scenarios)))
                    atexit { RoomLab.stop() }
                } catch {
                    current = .failure(error)
                }
            }
            return try current!.get()
        }
    }

    /// Stops the shared lab (its servers and files).
    static func stop() {
        let lab = running.withLock { current -> Lab? in
            defer { current = nil }
            if case .success(let lab)? = current { return lab }
            return nil
        }
        lab?.stop()
    }
}
