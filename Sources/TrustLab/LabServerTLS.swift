import ATSModel
import LabServers

/// How one scenario's server speaks TLS when it departs from the lab's default (TLS 1.2 to 1.3,
/// every cipher suite): the protocol range, OpenSSL's cipher list and the DHE group, as
/// badssl.com's nginx configuration sets `ssl_protocols`, `ssl_ciphers` and `ssl_dhparam`.
public struct LabServerTLS: Hashable, Sendable {
    /// The lowest version served.
    public var minimumVersion: TLSVersion
    /// The highest version served.
    public var maximumVersion: TLSVersion
    /// OpenSSL's cipher list for TLS 1.2 and below (nil: every suite at security level 0).
    public var cipherList: String?
    /// The DHE group (nil: no DHE suite can be chosen).
    public var dhParameters: LabDHParameters?
    /// The CA whose client certificates the server requires (nil: it asks for none).
    public var requiredClientCA: LabClientCA?

    /// Creates settings.
    public init(
        _ minimumVersion: TLSVersion, _ maximumVersion: TLSVersion, cipherList: String? = nil,
        dhParameters: LabDHParameters? = nil, requiredClientCA: LabClientCA? = nil
    ) {
        self.minimumVersion = minimumVersion
        self.maximumVersion = maximumVersion
        self.cipherList = cipherList
        self.dhParameters = dhParameters
        self.requiredClientCA = requiredClientCA
    }

    /// Applies the settings to `configuration`.
    public func apply(to configuration: inout LabTLSConfiguration) {
        configuration.minimumVersion = minimumVersion
        configuration.maximumVersion = maximumVersion
        configuration.cipherList = cipherList
        configuration.dhParameters = dhParameters
    }
}
