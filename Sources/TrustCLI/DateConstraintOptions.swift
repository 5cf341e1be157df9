import CTModel
import CommandLineSpec
import PathRules
import TrustCore
import TrustSupport

/// `--date-constraints`: date constraints beside the ones Apple announced, as if trustd's Valid
/// database listed them, for a CA of one's own (the lab's distrusted root) or one Apple has
/// constrained since the data compiled in.
extension CheckCommand {
    static let dateConstraintsOption = OptionSpec(
        name: "date-constraints", valueName: "file", arity: .one,
        help:
            "Also apply the date constraints in this JSON file, as trustd's Valid database would: {\"constraints\": [{\"name\", \"sha256\" (of the CA certificate), \"notBefore\" and/or \"notAfter\" (RFC 3339), \"overridable\" (true or false), \"source\"}]}. An entry replaces Apple's for the same CA.",
        defaultText: "Apple's announced constraints, compiled in")

    /// The most entries a file may hold.
    static let maximumDateConstraints = 10_000

    /// Reads `path`'s constraints into `settings` beside Apple's: 66 when the file cannot be read,
    /// 65 when it is not such a file.
    static func loadDateConstraints(_ path: String?, into settings: inout TrustSettings) -> Result<
        Void, Trustx.Failure
    > {
        guard let path else { return .success(()) }
        let bytes: [UInt8]
        do {
            bytes = try Trustx.inputAllowance.read(path)
        } catch {
            return .failure(Trustx.Failure(message: error.description, status: .noInput))
        }
        switch dateConstraints(bytes, source: path) {
        case .failure(let why):
            return .failure(Trustx.Failure(message: "\(path): \(why)", status: .dataError))
        case .success(let read):
            settings.dateConstraints = (settings.dateConstraints ?? DateConstraint.apple).merging(
                DateConstraint.table(read)
            ) { _, given in given }
            return .success(())
        }
    }

    /// The constraints of a `--date-constraints` file, or why it is not one.
    static func dateConstraints(_ bytes: [UInt8], source: String) -> Result<[DateConstraint], DateConstraintFileError> {
        var parser = JSONParser(bytes)
        let document: LogListJSON
        do {
            document = try parser.document()
        } catch {
            return .failure(DateConstraintFileError(error.description))
        }
        guard case .object(let top) = document, case .array(let entries)? = top["constraints"] else {
            return .failure(DateConstraintFileError("the file is not an object with a \"constraints\" array"))
        }
        guard entries.count <= maximumDateConstraints else {
            return .failure(DateConstraintFileError("more than \(maximumDateConstraints) constraints"))
        }
        var out: [DateConstraint] = []
        for (i, entry) in entries.enumerated() {
            switch constraint(entry, source: source) {
            case .success(let c): out.append(c)
            case .failure(let why): return .failure(DateConstraintFileError("constraint \(i): \(why.description)"))
            }
        }
        return .success(out)
    }

    /// One entry: a name, the CA's SHA-256 and at least one bound.
    static func constraint(_ entry: LogListJSON, source: String) -> Result<DateConstraint, DateConstraintFileError> {
        guard case .object(let e) = entry else { return .failure(DateConstraintFileError("not an object")) }
        guard case .string(let name)? = e["name"], !name.isEmpty else {
            return .failure(DateConstraintFileError("no \"name\""))
        }
        guard case .string(let digest)? = e["sha256"], digest.utf8.count == 64, digest.allSatisfy(\.isHexDigit) else {
            return .failure(DateConstraintFileError("\"sha256\" is not 64 hexadecimal digits"))
        }
        var bounds: [Timestamp?] = []
        for key in ["notBefore", "notAfter"] {
            switch e[key] {
            case nil, .null?: bounds.append(nil)
            case .string(let text)?:
                guard let t = Timestamp(rfc3339: text) else {
                    return .failure(DateConstraintFileError("\"\(key)\" is not an RFC 3339 time"))
                }
                bounds.append(t)
            default: return .failure(DateConstraintFileError("\"\(key)\" is not an RFC 3339 time"))
            }
        }
        guard let cutoff = bounds[1] ?? bounds[0] else {
            return .failure(DateConstraintFileError("neither \"notBefore\" nor \"notAfter\""))
        }
        var overridable: Bool?
        switch e["overridable"] {
        case nil, .null?: overridable = nil
        case .bool(let b)?: overridable = b
        default: return .failure(DateConstraintFileError("\"overridable\" is not true or false"))
        }
        var origin = "\(source) (--date-constraints)"
        if case .string(let s)? = e["source"], !s.isEmpty { origin = "\(s); \(origin)" }
        return .success(
            DateConstraint(
                sha256: digest, name: name, notBefore: bounds[0], notAfter: bounds[1],
                cutoffDate: String(cutoff.rfc3339.prefix(10)), overridable: overridable, source: origin))
    }
}

/// Why a `--date-constraints` file was refused.
struct DateConstraintFileError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
