/// What the `name-constraints` step found (NameConstraintsCheck).
enum NameConstraintsFinding: RuleFinding {
    case noNameConstraints
    case withinNameConstraints(count: Int)
    case nameConstraintViolated(name: String, reason: String)
    case nameConstraintFormUnsupported(form: String)

    var storage: Finding.Storage { .nameConstraints(self) }

    /// Apple's check key, subtype and OSStatus for failing findings.
    var appleFailure: AppleFailure? {
        switch self {
        case .nameConstraintViolated, .nameConstraintFormUnsupported:
            AppleFailure("NameConstraints", .compliance, -67689)
        default: nil
        }
    }

    /// One line, no newline.
    var title: String {
        switch self {
        case .noNameConstraints: "No name constraints on the path"
        case .withinNameConstraints: "Names within every issuer's constraints"
        case .nameConstraintViolated(let name, _): "Name \(name) violates a name constraint"
        case .nameConstraintFormUnsupported(let form):
            "Critical name constraint on \(form), a form Apple does not process"
        }
    }

    /// The rule in plain words, citing its source.
    var detail: String {
        switch self {
        case .noNameConstraints:
            "No certificate on the path carries nameConstraints."
        case .withinNameConstraints(let count):
            "Subject and subjectAltName entries fall within the \(count) constraint set\(count == 1 ? "" : "s") above (RFC 5280 4.2.1.10)."
        case .nameConstraintViolated(_, let reason):
            "\(reason) (RFC 5280 4.2.1.10; Apple NameConstraints, errSecInvalidName)."
        case .nameConstraintFormUnsupported(let form):
            "This CA's critical nameConstraints constrains \(form) names. Apple processes constraints on rfc822Name, dNSName, directoryName, URI and iPAddress only, and RFC 5280 4.2.1.10 lets an application that cannot process a critical constraint reject the certificate: trustd does, whatever the names below (Apple NameConstraints, errSecInvalidName)."
        }
    }

    var specifics: String? {
        if case .nameConstraintViolated(_, let reason) = self { return reason }
        return nil
    }
}
