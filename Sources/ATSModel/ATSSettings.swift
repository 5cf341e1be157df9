/// ATS as one evaluation applies it: the app's configuration, the platform and the URL scheme.
public struct ATSSettings: Hashable, Sendable {
    /// The configuration (`.init()` for `--ats`, ATS's defaults).
    public var configuration: ATSConfiguration
    /// The platform whose rules apply.
    public var platform: ATSPlatform
    /// The scheme the app loads.
    public var scheme: URLScheme
    /// Where the configuration came from (the Info.plist path), nil for the defaults.
    public var source: String?

    /// Creates ATS settings.
    public init(
        configuration: ATSConfiguration = ATSConfiguration(), platform: ATSPlatform = .current,
        scheme: URLScheme = .https, source: String? = nil
    ) {
        self.configuration = configuration
        self.platform = platform
        self.scheme = scheme
        self.source = source
    }
}
