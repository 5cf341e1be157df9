/// How the custom anchors (`TrustSettings.anchors`) come to be trusted on an Apple device.
public enum CustomAnchorClass: String, Hashable, Sendable, CaseIterable {
    /// The app sets them (SecTrustSetAnchorCertificates); the app's delegate decides trust.
    case app
    /// A configuration profile installed them and the user trusted them in Settings (trustd's user
    /// anchor source); URLSession's default handling decides trust. Apple relaxes some rules for
    /// these (docs/steps.md, "Anchor classes").
    case device

    /// The class of a path that ends at one of these anchors.
    public var anchorClass: AnchorClass { self == .app ? .custom : .device }
}
