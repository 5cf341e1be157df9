/// A part of the catalogue: the lab's own lessons, the App Transport Security lessons, and so on.
///
/// Each group is one file, `LabScenario+NAME.swift`, which declares the group and its scenarios;
/// `LabScenario.all` lists the groups' scenarios in teaching order, one line each.
public struct LabScenarioGroup: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// A short stable name, e.g. `ats`.
    public var id: String
    /// What the group teaches, as a heading.
    public var title: String

    /// Creates a group.
    public init(id: String, title: String) {
        self.id = id
        self.title = title
    }

    /// The id.
    public var description: String { id }
}
