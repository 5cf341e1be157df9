/// A complete candidate path the evaluator examined and did not report: a passing path is
/// reported as soon as one is found, else the best by Apple's score (SecCertificateServer.c).
public struct RejectedPath: Sendable {
    /// The path, leaf first.
    public var path: BuiltPath
    /// Its failed steps, in check order.
    public var failures: [Step]
}
