/// The same server checked with other settings than the default, and what happens then.
public struct LabVariation: Hashable, Sendable {
    /// What changes from the scenario's default settings, in the order the options are written.
    public var settings: [LabSetting]
    /// What is expected with those settings.
    public var expectation: LabExpectation
    /// Why, in one sentence.
    public var why: String
    /// For a rotating scenario, the leaf (from 1, in turn order) the expectation is for: it holds
    /// while that leaf is served; nil when it holds whichever leaf is served (D311).
    public var leaf: Int?

    /// Creates a variation; `leaf` names the served leaf its expectation holds under, if only one.
    public init(_ settings: [LabSetting], _ expectation: LabExpectation, _ why: String, leaf: Int? = nil) {
        self.settings = settings
        self.expectation = expectation
        self.why = why
        self.leaf = leaf
    }

    /// Whether the expectation holds while leaf `served` (from 1) of a rotating scenario is
    /// served: always, unless the variation is for another leaf.
    public func holds(whileServing served: Int) -> Bool { leaf == nil || leaf == served }

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
