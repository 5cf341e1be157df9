/// One piece of advice about a pin set, as a value: what about these pins will break a
/// deployment (a rotated key, a renewed leaf, a changed chain), for `--pin` pins and the
/// NSPinnedDomains identities that apply to the host.
public struct PinAdvice: Hashable, Sendable {
    /// Where the pins come from.
    public enum Source: Hashable, Sendable {
        /// `--pin`: the app's delegate.
        case option
        /// NSPinnedDomains: the matching entries' keys and the category.
        case pinnedDomains(domains: [String], category: PinCategory)
    }

    /// NSPinnedLeafIdentities or NSPinnedCAIdentities.
    public enum PinCategory: String, Hashable, Sendable {
        /// NSPinnedLeafIdentities.
        case leaf
        /// NSPinnedCAIdentities.
        case ca
    }

    /// What is wrong.
    public enum Kind: Hashable, Sendable {
        /// One pin and no backup: rotating that key bricks the app.
        case singlePin(pin: String)
        /// Only the leaf's key is pinned: a renewal with a new key breaks it.
        case leafOnly
        /// The pin matches no certificate of the built path.
        case matchesNothing(pin: String)
        /// The pin matches a certificate the server sends that the built path does not use.
        case unusedPresented(pin: String, presentedIndex: Int)
    }

    /// Where the pins come from.
    public var source: Source
    /// What is wrong.
    public var kind: Kind

    /// Advice of `kind` about the pins from `source`.
    package init(source: Source, kind: Kind) {
        self.source = source
        self.kind = kind
    }

    /// A short identifier: `single-pin`, `leaf-only`, `matches-nothing`, `unused-presented`.
    public var identifier: String {
        switch kind {
        case .singlePin: "single-pin"
        case .leafOnly: "leaf-only"
        case .matchesNothing: "matches-nothing"
        case .unusedPresented: "unused-presented"
        }
    }

    /// The pin the advice is about, if it is about one.
    public var pin: String? {
        switch kind {
        case .singlePin(let p), .matchesNothing(let p), .unusedPresented(let p, _): p
        case .leafOnly: nil
        }
    }

    /// `--pin`, `NSPinnedDomains example.com NSPinnedLeafIdentities`.
    public var sourceDescription: String {
        switch source {
        case .option: "--pin"
        case .pinnedDomains(let domains, let category):
            "NSPinnedDomains \(domains.joined(separator: ", ")) \(category == .leaf ? "NSPinnedLeafIdentities" : "NSPinnedCAIdentities")"
        }
    }

    /// One line, no newline.
    public var message: String {
        switch kind {
        case .singlePin(let p):
            "Only one pin (\(p)) and no backup: when that key is rotated or lost, every connection fails until the app is updated. Pin a backup key kept offline, or a second CA."
        case .leafOnly:
            "Only the leaf's key is pinned: the next renewal breaks the app unless the server keeps the same key. Pin the issuing CA's key too, or a backup leaf key."
        case .matchesNothing(let p):
            "The pin \(p) matches no certificate of the built path: it protects nothing today (a backup, or a mistake)."
        case .unusedPresented(let p, let i):
            "The pin \(p) is the key of certificate #\(i) the server sends, which the built path does not use (an extra or cross-signed certificate): pins are checked against the built path, so it never matches."
        }
    }
}
