import TrustLab

extension LabOptions {
    /// These options with deadlines a loaded machine cannot miss: the suites run side by side
    /// (D280), and a client starved past the lab's 2-second read deadline would be cut off in
    /// a test that is not about deadlines. The tests of the deadlines keep the lab's own.
    public var patient: LabOptions {
        var options = self
        options.readTimeout = 30
        options.connectionTimeout = 60
        return options
    }
}
