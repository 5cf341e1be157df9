import SuiteFixtures
import XCTest

@testable import TrustCore
@testable import TrustX509

// The one test PKI is SuiteFixtures' `TestPKI` (D347); these names keep the engine's tests reading
// as they did when the builder lived here.
typealias TestPKI = SuiteFixtures.TestPKI
typealias Issued = SuiteFixtures.Issued
typealias TestStore = SuiteFixtures.TestStore
typealias Span = SuiteFixtures.TestPKI.Span

/// One evaluator for the whole test run (its signature cache only remembers results).
let sharedEvaluator = Evaluator()

/// Evaluates `chain` (leaf first) under `settings`.
func evaluate(_ chain: [Certificate], _ settings: TrustSettings, file: StaticString = #filePath, line: UInt = #line)
    throws -> Evaluation
{
    try XCTUnwrap(sharedEvaluator.evaluate(chain: chain, settings: settings), "empty chain", file: file, line: line)
}

extension Step {
    /// `id@certificate:status`, with the OSStatus of a failure: `hostname@0:failed(-67602)`.
    var summary: String {
        let where_ = certificate.map(String.init) ?? "-"
        let code = osstatus.map { "(\($0))" } ?? ""
        return "\(id.rawValue)@\(where_):\(status.identifier)\(code)"
    }
}

extension Evaluation {
    /// Summaries of the failed steps, in check order.
    var failureSummaries: [String] { failures.map(\.summary) }
    /// Summaries of every step, in check order.
    var stepSummaries: [String] { steps.map(\.summary) }
    /// The single step with `id` about certificate `index` (nil for path-level steps).
    func step(_ id: StepID, _ index: Int?) -> Step? {
        let matching = steps.filter { $0.id == id && $0.certificate == index }
        return matching.count == 1 ? matching[0] : nil
    }
    /// The display names of the built path, leaf first.
    var pathNames: [String] { path.certificates.map(\.displayName) }
}

/// Asserts the parts of a verdict that Apple's APIs expose.
func assertVerdict(
    _ e: Evaluation, trusted: Bool, osstatus: Int32, urlError: Int?, resultType: TrustResultType? = nil,
    file: StaticString = #filePath, line: UInt = #line
) {
    XCTAssertEqual(e.verdict.trusted, trusted, "trusted; steps: \(e.failureSummaries)", file: file, line: line)
    XCTAssertEqual(e.verdict.osstatus, osstatus, "osstatus; steps: \(e.failureSummaries)", file: file, line: line)
    XCTAssertEqual(e.verdict.urlError, urlError, "urlError", file: file, line: line)
    if let resultType {
        XCTAssertEqual(e.verdict.resultType, resultType, "resultType", file: file, line: line)
    }
}

/// `chain` evaluated under the `webpki` profile with `anchor`, the Baseline Requirements on or off
/// (`br`): RFC 5280 alone where x509-limbo's RFC 5280 cases expect it.
func webpki(_ chain: [Certificate], anchor: Certificate, host: String? = TestPKI.host, br: Bool = true) throws
    -> Evaluation
{
    var s = TestPKI.ssl(host, anchors: [anchor])
    s.profile = .webpki
    s.caBrowserForumRules = br
    return try evaluate(chain, s)
}
