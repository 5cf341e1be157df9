/// Where the hostname check finds the Public Suffix List, which decides whether a wildcard sits
/// directly before a public suffix. An input like the issuer sources, so an evaluation reads no
/// file it was not given and tests can pass a list made from text.
public enum PublicSuffixSource: Sendable {
    /// Debian's `publicsuffix` file, read once per process on the first wildcard name: its ICANN
    /// section under the `apple` profile, the whole list (PRIVATE section too) under `webpki`.
    case debian
    /// This list under every profile; nil for none, leaving only the built-in single-label rule.
    case list(PublicSuffixList?)
}
