/// The rules of `trustx lint`; each raw value is the stable identifier scripts, suppressions and
/// docs/lint.md use.
public enum LintRule: String, CaseIterable, Hashable, Sendable {
    /// The property list's root is not a dictionary.
    case rootNotADictionary = "root-not-a-dictionary"
    /// NSAllowsArbitraryLoads is true.
    case arbitraryLoads = "arbitrary-loads"
    /// NSAllowsArbitraryLoads is true beside a narrower key that makes current systems ignore it.
    case arbitraryLoadsIgnored = "arbitrary-loads-ignored"
    /// NSAllowsArbitraryLoadsForMedia is true.
    case arbitraryLoadsMedia = "arbitrary-loads-media"
    /// NSAllowsArbitraryLoadsInWebContent is true.
    case arbitraryLoadsWeb = "arbitrary-loads-web"
    /// An exception domain allows cleartext HTTP.
    case insecureHTTP = "insecure-http"
    /// An exception domain does not require forward secrecy.
    case forwardSecrecyOff = "forward-secrecy-off"
    /// NSRequiresCertificateTransparency, which no longer changes anything.
    case certificateTransparencyObsolete = "certificate-transparency-obsolete"
    /// A key of the first ATS release, ignored by current systems.
    case obsoleteKey = "obsolete-key"
    /// An ATS key at the top of the Info.plist instead of inside NSAppTransportSecurity.
    case misplacedKey = "misplaced-key"
    /// An NSExceptionMinimumTLSVersion other than the exact spellings ATS accepts.
    case tlsVersionSpelling = "tls-version-spelling"
    /// A minimum TLS version lowered to 1.0 or 1.1.
    case tlsVersionBelow1_2 = "tls-version-below-1.2"
    /// An NSPinnedDomains entry with neither identities key.
    case pinnedDomainWithoutIdentities = "pinned-domain-without-identities"
    /// A pinned domain with fewer than two distinct valid pins.
    case pinsFewerThanTwo = "pins-fewer-than-two"
    /// A pinned domain that pins leaf keys only.
    case leafPinsOnly = "leaf-pins-only"
    /// An empty identities array.
    case pinsEmptyArray = "pins-empty-array"
    /// An identity dictionary without SPKI-SHA256-BASE64.
    case pinMissing = "pin-missing"
    /// An SPKI-SHA256-BASE64 that is not the base64 of 32 bytes.
    case pinNotSHA256 = "pin-not-sha256"
    /// The same pin twice in one array.
    case duplicatePin = "duplicate-pin"
    /// A domain key that is empty or holds white space.
    case domainMalformed = "domain-malformed"
    /// A domain key with a URL scheme.
    case domainScheme = "domain-scheme"
    /// A domain key with a wildcard.
    case domainWildcard = "domain-wildcard"
    /// A domain key with a path.
    case domainPath = "domain-path"
    /// A domain key with a port.
    case domainPort = "domain-port"
    /// A domain key with upper-case letters.
    case domainUpperCase = "domain-upper-case"
    /// An IP address under NSPinnedDomains.
    case pinnedIPAddress = "pinned-ip-address"
    /// A key ATS does not know in that dictionary.
    case unknownKey = "unknown-key"
    /// An unknown key that looks like a misspelling of a known one.
    case misspeltKey = "misspelt-key"
    /// A key written twice in one dictionary.
    case duplicateKey = "duplicate-key"
    /// A value of a type ATS does not read there.
    case wrongType = "wrong-type"
}
