/// A part of the catalogue: the lab's own lessons, the App Transport Security lessons, and so on.
///
/// Each group is one file, `LabScenario+NAME.swift`, which declares the group and its scenarios;
/// `LabScenario.all` lists the groups' scenarios in teaching order, one line each.
public struct LabScenarioGroup: Hashable, Sendable, Identifiable, CustomStringConvertible {
    /// A short stable name, e.g. `ats`.
    public var id: String
    /// What the group teaches, as a heading.
    public var title: String
    /// The port offset of the group's first scenario; the others follow in declaration order
    /// (`LabScenario.assigningPorts`).
    public var firstPortOffset: Int

    /// Creates a group.
    public init(id: String, title: String, firstPortOffset: Int) {
        self.id = id
        self.title = title
        self.firstPortOffset = firstPortOffset
    }

    /// The id.
    public var description: String { id }
}
