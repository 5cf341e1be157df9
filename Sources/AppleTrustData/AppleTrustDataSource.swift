/// Where the compiled-in Apple trust data comes from: one tag of Apple's published
/// security_certificates project (its roots, removed roots, constraints, EV roots, Certificate
/// Transparency log list and system pinning rules).
///
/// Every generated file of this module records the tag it was made from and a digest of its data;
/// a test checks that each file's tag is this one and that its data still matches its digest, so
/// data edited by hand or regenerated from another tag without this file is caught. Regenerate
/// everything with `scripts/apple-trust-data/update.py PATH-TO-CHECKOUT` (docs/apple-trust-data.md).
public enum AppleTrustDataSource {
    /// The security_certificates tag the data was generated from.
    public static let tag = "security_certificates-55349.0.11"
    /// The commit of that tag.
    public static let commit = "686038f67"
}
