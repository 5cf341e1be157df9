import ATSModel
import TLSProbe
import TrustCore
import TrustOptions
import TrustSupport
import TrustX509

/// A custom anchor and the file it was read from, if any (the copied command names that file
/// rather than writing the certificate out again).
public struct AnchorEntry: Hashable, Sendable {
    /// The anchor.
    public var certificate: Certificate
    /// The file it came from; nil for a certificate made an anchor in the session.
    public var file: String?

    /// Creates an entry.
    public init(_ certificate: Certificate, file: String? = nil) {
        self.certificate = certificate
        self.file = file
    }
}

/// Every setting the explorer lets the user change: the same settings `trustx check` takes, so
/// any state can be written back as a command line.
@dynamicMemberLookup
public struct Toggles: Hashable, Sendable {
    /// Anchors added in the session (`a` on a certificate, `F` from a file), on top of the target's.
    public var addedAnchors: [AnchorEntry] = []
    /// The target's own anchors the user stopped trusting.
    public var removedAnchors: Set<Certificate> = []
    /// The settings `trustx check` takes, read and written through `CheckSettings`' one
    /// declaration of each (D380); `toggles.pins` reads `toggles.check.pins`.
    public var check = CheckSettings()

    /// The defaults: SSL with the URL's host, the target's anchors only, TLS 1.2 to 1.3, AIA
    /// on, now, Apple's rules: under these each lab scenario meets its expectation.
    public init() {}

    /// A setting of `check`, as `toggles.policy`.
    public subscript<Value>(dynamicMember path: WritableKeyPath<CheckSettings, Value>) -> Value {
        get { check[keyPath: path] }
        set { check[keyPath: path] = newValue }
    }

    /// Whether a connection made under `self` can serve `other` (TLS versions and AIA fetching
    /// are decided while connecting; everything else only re-evaluates).
    func sameConnection(as other: Toggles) -> Bool {
        // ATS decides what the client offers (its TLS floor and cipher suites), so the server
        // is asked again when ATS changes.
        check.tlsMinimum == other.tlsMinimum && check.tlsMaximum == other.tlsMaximum
            && check.fetchAIA == other.fetchAIA && check.ats == other.ats
    }
}

extension CaseIterable where Self: Equatable {
    /// The next case, wrapping around.
    func cycled() -> Self {
        let all = Array(Self.allCases)
        let i = all.firstIndex(of: self)!
        return all[(i + 1) % all.count]
    }
}
