/// What a client should conclude about one lab server: the verdict, Apple's OSStatus and the
/// URLError URLSession would report.
public struct LabExpectation: Hashable, Sendable, CustomStringConvertible {
    /// Whether the connection would proceed.
    public var trusted: Bool
    /// What SecTrustEvaluateWithError returns (0 = errSecSuccess); nil when the connection fails
    /// before any trust evaluation (a handshake failure).
    public var osstatus: Int32?
    /// The URLError URLSession reports, nil when the request succeeds.
    public var urlError: Int?

    /// Creates an expectation.
    public init(trusted: Bool, osstatus: Int32?, urlError: Int?) {
        self.trusted = trusted
        self.osstatus = osstatus
        self.urlError = urlError
    }

    /// Trusted: errSecSuccess and no URLError.
    public static let trusted = LabExpectation(trusted: true, osstatus: 0, urlError: nil)

    /// Rejected by evaluation with `osstatus` while the app's delegate decides (custom anchors or
    /// pins): the delegate cancels the challenge, so URLSession reports -999 (docs/steps.md#urlerror,
    /// `TrustSettings.delegateDecides`).
    public static func rejectedByDelegate(_ osstatus: Int32) -> LabExpectation {
        LabExpectation(trusted: false, osstatus: osstatus, urlError: -999)
    }

    /// Rejected by URLSession's default handling (no custom anchor, no pin): -1202 (docs/steps.md#urlerror).
    public static func rejectedByDefault(_ osstatus: Int32) -> LabExpectation {
        LabExpectation(trusted: false, osstatus: osstatus, urlError: -1202)
    }

    /// `trusted`, `-67602 / -999` or `no evaluation / -1200`.
    public var description: String {
        if trusted { return "trusted" }
        let status = osstatus.map { "\($0)" } ?? "no evaluation"
        return "\(status) / URLError \(urlError.map { "\($0)" } ?? "none")"
    }
}
