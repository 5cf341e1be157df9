/// A key whose SPKI SHA-256 pin a lesson uses.
public enum LabPin: String, Hashable, Sendable, CaseIterable {
    /// The good server's leaf key (the walkthrough's pin).
    case goodLeaf = "good-leaf"
    /// The rsa-2048 server's leaf key (the lessons' RSA pin).
    case rsa2048Leaf = "rsa-2048-leaf"
    /// The key the key-rotated server used before rotation (the stale pin).
    case rotatedAwayLeaf = "key-rotated-old-leaf"
    /// Library Test CA's key (a backup pin that survives leaf rotation).
    case libraryTestCA = "library-test-ca"
    /// The key pin-rotated's server used before rotation (its NSPinnedDomains leaf identity).
    case pinRotatedOldLeaf = "pin-rotated-old-leaf"
    /// The rotating server's first leaf key (a pin that holds only until the switch).
    case rotatingFirstLeaf = "rotating-first-leaf"
}
