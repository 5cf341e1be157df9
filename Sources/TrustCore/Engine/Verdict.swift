/// The outcome: trusted or not, and the codes Apple's APIs would produce.
public struct Verdict: Hashable, Sendable {
    /// Whether the connection would proceed.
    public var trusted: Bool
    /// What SecTrustEvaluateWithError would return (0 = errSecSuccess).
    public var osstatus: Int32
    /// SecTrustGetTrustResult's answer.
    public var resultType: TrustResultType
    /// The URLError code URLSession would report, nil when trusted.
    public var urlError: Int?
    /// The step whose failure decided the OSStatus, if any.
    public var decisiveStep: Step?
    /// One line for people.
    public var summary: String
    /// kSecTrustCertificateTransparency: the path is CT-qualified and SecTrust's evaluation
    /// succeeded, whether or not CT was enforced (docs/steps.md, `certificate-transparency`).
    public var certificateTransparency = false
    /// kSecTrustExtendedValidation: a trusted, CT-qualified path to a system root listed as EV for
    /// one of the leaf's policies, meeting trustd's EV rules, with revocation answered (docs/steps.md).
    public var extendedValidation = false
    /// When the anchor is an EV root but the path is not EV, why not; nil otherwise.
    public var extendedValidationFailure: String?

    /// The constant's name, e.g. `errSecHostNameMismatch`.
    public var osstatusName: String { OSStatusNames.name(osstatus) }

    /// The URLError code's name, e.g. `NSURLErrorServerCertificateUntrusted`.
    public var urlErrorName: String? { urlError.map(URLErrorNames.name) }
}
