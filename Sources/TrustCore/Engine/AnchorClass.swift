/// Which class of anchor a path ends at; Apple's requirements differ by class.
public enum AnchorClass: String, Hashable, Sendable {
    /// A root of the system trust store.
    case system
    /// A custom anchor the app set (SecTrustSetAnchorCertificates): `CustomAnchorClass.app`.
    case custom
    /// A custom anchor the device trusts: installed by a configuration profile and trusted in
    /// Settings (trustd's user anchor source): `CustomAnchorClass.device`. Apple relaxes the
    /// serverAuth, lifetime-maximum, key-size and signature-hash rules for it (docs/steps.md).
    case device

    /// `a system root`, `a custom anchor`, `a device-trusted anchor`.
    public var phrase: String {
        switch self {
        case .system: "a system root"
        case .custom: "a custom anchor"
        case .device: "a device-trusted anchor"
        }
    }
}
