/// Why a property list could not be read. An Info.plist comes from whoever wrote it, so every
/// limit the reader keeps ends here as a reason, never as a hang or a crash.
public struct PropertyListError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What went wrong.
    public enum Reason: Hashable, Sendable {
        /// The input is larger than the reader accepts.
        case tooLarge(bytes: Int, limit: Int)
        /// Dictionaries and arrays nest deeper than the reader accepts.
        case tooDeep(limit: Int)
        /// More objects (or, in a binary list, more visits of shared objects) than the reader accepts.
        case tooManyObjects(limit: Int)
        /// A binary list whose shared strings and data, copied at each use, would exceed this many bytes.
        case expandsTooFar(limit: Int)
        /// Neither `bplist00` nor XML.
        case unrecognizedFormat
        /// A binary list's object refers, directly or not, to itself.
        case referenceCycle(object: Int)
        /// A valid construct that Info.plist files do not use and this reader does not take
        /// (UIDs, sets, null, UTF-16 XML).
        case unsupported(String)
        /// Broken syntax or structure.
        case malformed(String)
    }

    /// What went wrong.
    public var reason: Reason
    /// The byte offset where it was found, when one place is to blame.
    public var offset: Int?

    /// Creates an error.
    public init(_ reason: Reason, at offset: Int? = nil) {
        self.reason = reason
        self.offset = offset
    }

    /// One line, no newline.
    public var description: String {
        let text: String
        switch reason {
        case .tooLarge(let bytes, let limit):
            text = "the file is \(bytes) bytes, more than the \(limit) a property list may have here"
        case .tooDeep(let limit): text = "dictionaries and arrays nest deeper than \(limit) levels"
        case .tooManyObjects(let limit): text = "more than \(limit) objects (counting each visit of a shared one)"
        case .expandsTooFar(let limit):
            text = "its shared strings and data would expand to more than \(limit) bytes"
        case .unrecognizedFormat: text = "not a property list (neither XML nor binary bplist00)"
        case .referenceCycle(let object): text = "object \(object) contains itself (a reference cycle)"
        case .unsupported(let what): text = "\(what) is not supported in an Info.plist"
        case .malformed(let what): text = what
        }
        return offset.map { "at byte \($0): \(text)" } ?? text
    }
}
