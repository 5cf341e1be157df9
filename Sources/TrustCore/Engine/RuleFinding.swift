/// A rule's finding type: one per check (or per engine step), holding the rule's codes and text,
/// so a new rule is one check file and its finding type, plus its case in `Finding.Storage`.
protocol RuleFinding: Hashable, Sendable {
    /// Apple's check key, subtype and OSStatus, for a finding that fails the step; nil when Apple
    /// reports none.
    var appleFailure: AppleFailure? { get }
    /// One line, no newline.
    var title: String { get }
    /// The rule in plain words, citing its source.
    var detail: String { get }
    /// What the finding says beyond its title, for one-line listings; nil by default.
    var specifics: String? { get }
    /// This finding as `Finding` stores it: its own case of `Finding.Storage`.
    var storage: Finding.Storage { get }
}

extension RuleFinding {
    var specifics: String? { nil }
}
