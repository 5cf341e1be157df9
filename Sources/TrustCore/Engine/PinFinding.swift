/// What the `pin` step found: the app's SPKI pins, checked by its delegate after evaluation (Evaluator).
enum PinFinding: RuleFinding {
    case pinMatched(pin: String)
    case pinNotMatched(count: Int)
    case pinNotChecked
    case noPins

    var storage: Finding.Storage { .pin(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        nil
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .pinMatched: "Pinned key found in the chain"
        case .pinNotMatched: "No certificate in the chain has a pinned key"
        case .pinNotChecked: "Pins not checked: evaluation failed first"
        case .noPins: "No pins set"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .pinMatched(let pin):
            "A certificate of the built chain has SPKI SHA-256 sha256//\(pin); pins are checked after evaluation passed, on the built chain."
        case .pinNotMatched(let count):
            "None of the \(count) pin\(count == 1 ? "" : "s") matches the SPKI SHA-256 of any certificate in the built chain; the app's delegate cancels the challenge (URLError -999)."
        case .pinNotChecked:
            "Pins are only meaningful after normal evaluation passes; checking them instead of evaluation is a classic mistake."
        case .noPins:
            "No SPKI pins are configured."
        }
    }
}
