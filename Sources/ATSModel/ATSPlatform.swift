/// Which generation of Apple's systems ATS follows: iOS 17 / macOS 14 changed how routable IP
/// addresses are treated (docs/ats.md).
public enum ATSPlatform: String, Hashable, Sendable, CaseIterable {
    /// iOS 16 / macOS 13 and earlier.
    case ios16
    /// iOS 17 / macOS 14 and later (the default).
    case ios17
}
