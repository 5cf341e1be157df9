import ATSModel
import TrustExport
import XCTest

/// The decoder and the lint read one key table: what it lists is known to both, and what it marks
/// obsolete is obsolete to both.
final class ATSKeyTableTests: XCTestCase {
    /// A value of the type the table gives, so only the key's name is in question.
    static func value(for key: ATSKey) -> PropertyListValue {
        switch key.type {
        case .boolean: .bool(false)
        case .strictBoolean: .bool(true)
        case .tlsVersion: .string("TLSv1.2")
        case .domains: .dictionary([])
        case .identities: .array([])
        case .spkiDigest: .string(String(repeating: "A", count: 43) + "=")
        }
    }

    /// An Info.plist with `key` written in a dictionary of `place`.
    static func plist(_ key: ATSKey, in place: ATSKey.Place) -> PropertyListValue {
        let entry = PropertyListEntry(key: key.name, value: value(for: key))
        let domain = PropertyListEntry(key: "example.com", value: .dictionary([entry]))
        let ats: [PropertyListEntry] =
            switch place {
            case .topLevel: [entry]
            case .exceptionDomain: [PropertyListEntry(key: "NSExceptionDomains", value: .dictionary([domain]))]
            case .pinnedDomain: [PropertyListEntry(key: "NSPinnedDomains", value: .dictionary([domain]))]
            case .identity:
                [
                    PropertyListEntry(
                        key: "NSPinnedDomains",
                        value: .dictionary([
                            PropertyListEntry(
                                key: "example.com",
                                value: .dictionary([
                                    PropertyListEntry(
                                        key: "NSPinnedCAIdentities", value: .array([.dictionary([entry])]))
                                ]))
                        ]))
                ]
            }
        return .dictionary([PropertyListEntry(key: "NSAppTransportSecurity", value: .dictionary(ats))])
    }

    func testEveryTableKeyIsKnownToTheDecoderAndTheLintWhereItBelongs() throws {
        for key in ATSKey.all where key.isCurrent {
            for place in key.places {
                let root = Self.plist(key, in: place)
                let notes = try ATSConfiguration.decode(root).notes.filter {
                    if case .unknownKey = $0.problem { return true }
                    return false
                }
                XCTAssertEqual(notes, [], "decoder: \(key.name)")
                let findings = ATSLint.lint(root).filter { [.unknownKey, .misspeltKey].contains($0.lintRule) }
                XCTAssertEqual(findings.map(\.keyPath), [], "lint: \(key.name)")
            }
        }
    }

    func testObsoleteTableKeysAreObsoleteToTheDecoderAndTheLint() throws {
        let obsolete = ATSKey.all.filter { !$0.isCurrent }
        XCTAssertEqual(obsolete.count, 7)
        for key in obsolete {
            let root = Self.plist(key, in: .exceptionDomain)
            XCTAssertEqual(try ATSConfiguration.decode(root).notes.map(\.problem), [.obsoleteKey], key.name)
            XCTAssertEqual(ATSLint.lint(root).map(\.lintRule), [.obsoleteKey], key.name)
        }
    }

    func testAKeyOutsideItsDictionaryIsUnknownToBoth() throws {
        // NSPinnedLeafIdentities belongs under NSPinnedDomains only.
        let key = try XCTUnwrap(ATSKey.named("NSPinnedLeafIdentities", in: .pinnedDomain))
        XCTAssertNil(ATSKey.named(key.name, in: .exceptionDomain))
        let root = Self.plist(key, in: .exceptionDomain)
        XCTAssertEqual(try ATSConfiguration.decode(root).notes.map(\.problem), [.unknownKey(suggestion: nil)])
        XCTAssertEqual(ATSLint.lint(root).map(\.lintRule), [.unknownKey])
    }
}
