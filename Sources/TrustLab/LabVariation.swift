/// The same server checked with other settings than the default, and what happens then.
public struct LabVariation: Hashable, Sendable {
    /// What changes from the scenario's default settings, in the order the options are written.
    public var settings: [LabSetting]
    /// What is expected with those settings.
    public var expectation: LabExpectation
    /// Why, in one sentence.
    public var why: String

    /// Creates a variation.
    public init(_ settings: [LabSetting], _ expectation: LabExpectation, _ why: String) {
        self.settings = settings
        self.expectation = expectation
        self.why = why
    }

    /// Whether the scenario's own `--anchor` is kept (false: the settings give every anchor).
    public var keepsScenarioAnchor: Bool { !settings.contains(.noScenarioAnchor) }

    /// The options the settings add, in order (no URL, no scenario anchor).
    public func options(_ values: LabArgumentValues) -> [String] { settings.flatMap { $0.arguments(values) } }

    /// The whole `trustx check` argument list after `check`: `target` (the URL and any
    /// `--connect-to`), the scenario's `--anchor scenarioAnchor` unless left out, then the options.
    public func checkArguments(target: [String], scenarioAnchor: String, _ values: LabArgumentValues) -> [String] {
        target + (keepsScenarioAnchor ? ["--anchor", scenarioAnchor] : []) + options(values)
    }
}
