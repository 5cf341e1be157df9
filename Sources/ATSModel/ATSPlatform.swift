/// Which generation of Apple's systems, and of the SDK an app is built with, ATS follows: iOS 17 /
/// macOS 14 changed how routable IP addresses are treated, and the 26 SDKs raised the TLS minimum a
/// connection gets when nothing sets one (docs/ats.md).
public enum ATSPlatform: String, Hashable, Sendable, CaseIterable {
    /// iOS 16 / macOS 13 and earlier.
    case ios16
    /// iOS 17 / macOS 14 to iOS 18 / macOS 15, or an app built with those SDKs.
    case ios17
    /// iOS and iPadOS 26, an app built with the 26 SDK (the default).
    case ios26
    /// macOS Tahoe 26, an app built with its SDK.
    case macos26
    /// tvOS 26, an app built with its SDK.
    case tvos26
    /// watchOS 26, an app built with its SDK.
    case watchos26
    /// visionOS 26, an app built with its SDK.
    case visionos26

    /// The platform new settings get.
    public static let current = ATSPlatform.ios26

    /// Whether ATS covers routable IP addresses (from iOS 17 / macOS 14 on).
    public var coversIPAddresses: Bool { self != .ios16 }

    /// Whether this is one of the fall-2025 releases, whose SDKs the TLS default below follows.
    public var is26: Bool { self != .ios16 && self != .ios17 }

    /// The lowest TLS version a connection accepts when nothing set one (ATS exempting the host, no
    /// minimum of the app's own): TLS 1.2 for a program built with a 26 SDK, TLS 1.0 before
    /// (Security-61901, protocol/SecProtocol.c, `sec_protocol_options_get_default_min_tls_protocol_version`:
    /// `dyld_program_sdk_at_least(dyld_fall_2025_os_versions)`). It follows the SDK the app was
    /// built with, not the device: an app built with an older SDK keeps TLS 1.0 on a 26 device.
    public var defaultMinimumTLSVersion: TLSVersion { is26 ? .tls1_2 : .tls1_0 }

    /// `iOS 26 / iPadOS 26 (26 SDK)`, for reports.
    public var displayName: String {
        switch self {
        case .ios16: "iOS 16 / macOS 13 and earlier"
        case .ios17: "iOS 17 / macOS 14 and later"
        case .ios26: "iOS 26 / iPadOS 26 (26 SDK)"
        case .macos26: "macOS Tahoe 26 (26 SDK)"
        case .tvos26: "tvOS 26 (26 SDK)"
        case .watchos26: "watchOS 26 (26 SDK)"
        case .visionos26: "visionOS 26 (26 SDK)"
        }
    }
}
