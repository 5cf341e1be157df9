import TrustX509

// Which extensions are understood is the engine's to say (the checks declare what they enforce),
// not the X.509 layer's, so these live here rather than on the types (D131).

extension Extension {
    /// Whether some check enforces this type, so a critical one is understood (an unknown critical
    /// type fails evaluation); decoding alone does not count. The CT poison and the SCT list are
    /// decoded but enforced by no check: Apple's parser has no parser for them, so a critical one
    /// is an unknown critical extension (a precertificate is not a certificate to trust; RFC 6962 3.1).
    public var isKnown: Bool { enforcedExtensions.contains(oid) }
}

extension Certificate {
    /// The first critical extension trustx does not enforce, if any.
    public var firstUnknownCriticalExtension: Extension? {
        extensions.first { $0.critical && !$0.isKnown }
    }
}
