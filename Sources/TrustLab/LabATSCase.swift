import ATSModel
import TrustCore

/// An App Transport Security configuration a lesson tries for the scenario's host, and what an
/// app with it concludes: the Info.plist's NSAppTransportSecurity, with an NSExceptionDomains
/// and/or NSPinnedDomains entry for the host when a key is set.
public struct LabATSCase: Hashable, Sendable {
    /// A short name, also the file stem of the Info.plist the lab writes (`NAME.LABEL.plist`).
    public var label: String
    /// NSExceptionMinimumTLSVersion, exactly as written.
    public var minimumTLSVersion: String?
    /// NSExceptionRequiresForwardSecrecy.
    public var requiresForwardSecrecy: Bool?
    /// NSPinnedLeafIdentities (nil: absent).
    public var leafPins: [LabPin]?
    /// NSPinnedCAIdentities (nil: absent).
    public var caPins: [LabPin]?
    /// How the scenario's anchor is trusted: NSPinnedDomains lessons put it on the device (a
    /// profile), so no delegate is involved and a pin failure reaches the app as URLSession's own
    /// -1200; with an app-set anchor the delegate's evaluation fails instead and it cancels (-999).
    public var anchorClass: CustomAnchorClass
    /// What the app concludes.
    public var expectation: LabExpectation
    /// Why, in one sentence.
    public var why: String

    /// Creates a case.
    public init(
        _ label: String, minimumTLSVersion: String? = nil, requiresForwardSecrecy: Bool? = nil,
        leafPins: [LabPin]? = nil, caPins: [LabPin]? = nil, anchorClass: CustomAnchorClass = .app,
        _ expectation: LabExpectation, _ why: String
    ) {
        self.anchorClass = anchorClass
        self.label = label
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
        self.leafPins = leafPins
        self.caPins = caPins
        self.expectation = expectation
        self.why = why
    }

    /// The NSAppTransportSecurity dictionary for `host`, with `pins` giving each lesson key's
    /// SPKI SHA-256 in base64.
    public func configuration(host: String, pins: [LabPin: String]) -> ATSConfiguration {
        var c = ATSConfiguration()
        if minimumTLSVersion != nil || requiresForwardSecrecy != nil {
            c.exceptionDomains = [
                ATSExceptionDomain(
                    domain: host, minimumTLSVersionText: minimumTLSVersion,
                    requiresForwardSecrecy: requiresForwardSecrecy)
            ]
        }
        if leafPins != nil || caPins != nil {
            func identities(_ list: [LabPin]?) -> [PinnedIdentity]? {
                list.map { $0.map { PinnedIdentity(text: pins[$0] ?? "") } }
            }
            c.pinnedDomains = [
                PinnedDomain(domain: host, leafIdentities: identities(leafPins), caIdentities: identities(caPins))
            ]
        }
        return c
    }
}
