import Testing

/// A suite's one-time set-up and tear-down, around all of its tests: the servers and files a
/// suite shares are made before its first test and stopped or removed after its last, so none
/// outlives the run. The test targets' suites run side by side (D280); a suite that shares
/// such things is `.serialized` too, so its own tests take them in turn.
public struct SuiteFixture: SuiteTrait, TestScoping {
    let setUp: (@Sendable () -> Void)?
    let tearDown: (@Sendable () -> Void)?

    /// Once around the suite, not around each test.
    public var isRecursive: Bool { false }

    public func provideScope(
        for test: Test, testCase: Test.Case?, performing function: @Sendable () async throws -> Void
    ) async throws {
        // Set-up and tear-down block (they start and stop servers): on the tests' own threads.
        if let setUp { await withTaskExecutorPreference(TestThreads.shared) { setUp() } }
        do {
            try await function()
        } catch {
            if let tearDown { await withTaskExecutorPreference(TestThreads.shared) { tearDown() } }
            throw error
        }
        if let tearDown { await withTaskExecutorPreference(TestThreads.shared) { tearDown() } }
    }
}

extension Trait where Self == SuiteFixture {
    /// `setUp` before the suite's first test, `tearDown` after its last.
    public static func fixture(
        setUp: (@Sendable () -> Void)? = nil, tearDown: (@Sendable () -> Void)? = nil
    ) -> Self {
        SuiteFixture(setUp: setUp, tearDown: tearDown)
    }
}
