import ATSModel
import PathRules
import TrustCore
import TrustOptions

/// One setting a lab variation changes from the scenario's default settings (docs/lab.md, "What
/// expected means"); `arguments(_:)` spells it as `trustx check` options.
public enum LabSetting: Hashable, Sendable {
    /// Another trust policy: Basic X.509, or SSL without the host-name check.
    case policy(TrustPolicy)
    /// One more custom anchor (with `noScenarioAnchor`, the only one).
    case anchor(LabAnchor)
    /// The scenario's own anchor is left out: the other settings give every anchor, or none is
    /// set and only system roots are trusted.
    case noScenarioAnchor
    /// A pin on a lesson key's SPKI SHA-256, checked after evaluation as an app's delegate does.
    case pin(LabPin)
    /// The lowest TLS version the client offers.
    case minimumTLS(TLSVersion)
    /// No fetching of a missing issuer through the leaf's AIA caIssuers URL.
    case noAIA
    /// The lab's learner identity as the client certificate.
    case clientIdentity
    /// How the custom anchors reached the device: set by the app, or installed by a profile.
    case anchorClass(CustomAnchorClass)
    /// A lab root as the whole system store (`--store`): what trustd enforces for system roots
    /// (Certificate Transparency) applies to it.
    case store(LabAnchor)
    /// The lab's own CT log list instead of Apple's (`--ct-logs`).
    case ctLogs
    /// The lab's date constraints beside Apple's (`--date-constraints`): a device whose Valid
    /// database lists the lab's distrusted root.
    case dateConstraints
    /// Who evaluates (`--client`): an app, or Safari and Apple's other programs, for which trustd
    /// moves a system root's expiry 60 days earlier.
    case client(TrustClient)

    /// The `trustx check` options for this setting, with `values` naming the lab's files and pins.
    /// The lab's command lines, JSON and labels all come from here.
    public func arguments(_ values: LabArgumentValues) -> [String] {
        switch self {
        // Spelled explicitly (a default too) with the words `CheckSettings` declares (D380).
        case .policy(let policy):
            // The policy's command-line name; an SSL policy with its own host names that host.
            let (kind, host) = (CheckSetting.policy.options[0], CheckSetting.policy.options[1])
            return [kind.flag, policy.identifier] + (policy.host.map { [host.flag, $0] } ?? [])
        case .anchor(let anchor): return ["--anchor", values.anchorPath(anchor)]
        case .noScenarioAnchor: return []
        case .pin(let pin): return [CheckSetting.pins.option.flag, values.pin(pin)]
        case .minimumTLS(let version): return [CheckSetting.tlsMinimum.option.flag, LabSetting.versionNumber(version)]
        case .noAIA: return [CheckSetting.noAIA.option.flag]
        case .clientIdentity:
            return ["--client-cert", values.clientIdentityPath, "--password", values.clientIdentityPassword]
        case .anchorClass(let anchorClass): return [CheckSetting.anchorClass.option.flag, anchorClass.rawValue]
        case .store(let anchor): return [CheckSetting.store.option.flag, values.anchorPath(anchor)]
        case .ctLogs: return ["--ct-logs", values.ctLogsPath]
        case .dateConstraints: return ["--date-constraints", values.dateConstraintsPath]
        case .client(let client): return [CheckSetting.client.option.flag, client.rawValue]
        }
    }

    /// `1.2` for TLS 1.2: the spelling `--tls-min` takes.
    static func versionNumber(_ version: TLSVersion) -> String { CheckSetting.versionWord(version) }
}

/// What a variation's arguments name: the files and pins of a running lab, or short names for
/// the same things where no lab runs (a label in the explorer).
public struct LabArgumentValues: Sendable {
    /// The path (or name) of each anchor file.
    public var anchorPaths: [LabAnchor: String]
    /// `sha256//BASE64` (or a name) of each lesson key.
    public var pins: [LabPin: String]
    /// The learner identity's PKCS#12 file.
    public var clientIdentityPath: String
    /// Its password.
    public var clientIdentityPassword: String
    /// The lab's CT log list.
    public var ctLogsPath: String = CTPKI.logListFileName
    /// The lab's date constraints.
    public var dateConstraintsPath: String = DistrustPKI.fileName

    /// Creates values.
    public init(
        anchorPaths: [LabAnchor: String], pins: [LabPin: String], clientIdentityPath: String,
        clientIdentityPassword: String
    ) {
        self.anchorPaths = anchorPaths
        self.pins = pins
        self.clientIdentityPath = clientIdentityPath
        self.clientIdentityPassword = clientIdentityPassword
    }

    /// Names instead of values: each anchor's file name, each pin's key name, `client.p12` and
    /// `PASSWORD`.
    public static let names = LabArgumentValues(
        anchorPaths: Dictionary(uniqueKeysWithValues: LabAnchor.allCases.map { ($0, $0.fileName) }),
        pins: Dictionary(uniqueKeysWithValues: LabPin.allCases.map { ($0, $0.rawValue) }),
        clientIdentityPath: "client.p12", clientIdentityPassword: "PASSWORD")

    func anchorPath(_ anchor: LabAnchor) -> String { anchorPaths[anchor] ?? anchor.fileName }
    func pin(_ pin: LabPin) -> String { pins[pin] ?? "" }
}
