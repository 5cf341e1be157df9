/// What Apple's trustd records when a check fails: the check key, its subtype and OSStatus.
public struct AppleFailure: Hashable, Sendable {
    /// The SecPolicyChecks.list key, e.g. `SSLHostname`.
    public var check: String
    /// The subtype that decides priority.
    public var subtype: FailureClass
    /// The OSStatus this failure maps to.
    public var osstatus: Int32
    /// Whether the check is in result class F (SecTrustResultType.fatalTrustFailure).
    public var fatal: Bool

    init(_ check: String, _ subtype: FailureClass, _ osstatus: Int32, fatal: Bool = false) {
        self.check = check
        self.subtype = subtype
        self.osstatus = osstatus
        self.fatal = fatal
    }
}
