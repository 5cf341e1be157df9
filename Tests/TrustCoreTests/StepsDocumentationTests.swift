import ATSModel
import Foundation
import PathRules
import TrustSupport
import XCTest

@testable import CTModel
@testable import TrustCore

/// docs/steps.md against the code: the step ids, the files that make each step, and the Apple
/// check and OSStatus of every finding, both ways.
final class StepsDocumentationTests: XCTestCase {
    /// One row of a findings table: the finding's case name and the Apple codes the page gives.
    struct Row {
        var section: String
        var name: String
        var check: String?
        var osstatus: Int32?
        var failed: Bool
    }

    /// The findings a row's first cell names: the backquoted names it starts with, separated by
    /// commas (`pinnedDomains(leafMatched)` names `leafMatched`), without their parameters.
    func names(_ cell: String) -> [String] {
        var out: [String] = []
        var rest = Substring(cell)
        while rest.hasPrefix("`"), let end = rest.dropFirst().firstIndex(of: "`") {
            var name = rest[rest.index(after: rest.startIndex)..<end]
            if name.hasPrefix("pinnedDomains(") { name = name.dropFirst("pinnedDomains(".count) }
            out.append(String(name.prefix { $0.isLetter || $0.isNumber }))
            rest = rest[rest.index(after: end)...]
            if rest.hasPrefix(", `") { rest = rest.dropFirst(2) } else { break }
        }
        return out
    }

    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// The page's sections by step id: their lines.
    func sections() throws -> [(id: String, lines: [String])] {
        let text = try String(contentsOf: Self.root.appendingPathComponent("docs/steps.md"), encoding: .utf8)
        var out: [(id: String, lines: [String])] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if line.hasPrefix("## `"), line.hasSuffix("`") {
                out.append((String(line.dropFirst(4).dropLast()), []))
            } else if line.hasPrefix("## ") {
                out.append(("", []))
            } else if !out.isEmpty {
                out[out.count - 1].lines.append(line)
            }
        }
        return out.filter { !$0.id.isEmpty }
    }

    func cells(_ line: String) -> [String] {
        line.split(separator: "|", omittingEmptySubsequences: false).dropFirst().dropLast()
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }

    /// Every row of every findings table (a table whose first column is `finding`).
    func rows() throws -> [Row] {
        var out: [Row] = []
        for (id, lines) in try sections() {
            var columns: [String]?
            for line in lines {
                guard line.hasPrefix("|") else {
                    columns = nil
                    continue
                }
                let c = cells(line)
                if c.first == "finding" {
                    columns = c
                    continue
                }
                guard let columns, !line.hasPrefix("|---") else { continue }
                func cell(_ title: String) -> String? {
                    columns.firstIndex(of: title).flatMap { $0 < c.count ? c[$0] : nil }
                }
                // Only a failed step reports Apple's codes.
                let failed = cell("status")?.contains("failed") ?? false
                let checkText = cell("Apple check") ?? ""
                let checkName = String(checkText.prefix { $0.isLetter || $0.isNumber })
                let check = !failed || checkName.isEmpty || checkName == "none" ? nil : checkName
                let status = failed ? cell("OSStatus").flatMap { Int32($0.prefix { $0 == "-" || $0.isNumber }) } : nil
                for name in names(c[0]) {
                    out.append(Row(section: id, name: name, check: check, osstatus: status, failed: failed))
                }
            }
        }
        return out
    }

    /// The case name of a finding's value (`keyTooSmall` for `.keyTooSmall(label:bits:minimum:)`).
    func caseName(_ finding: Finding) -> String {
        Mirror(reflecting: finding.value).children.first?.label ?? String(describing: finding.value)
    }

    func testEveryStepIDHasASectionAndEverySectionIsAStepID() throws {
        let documented = try sections().map(\.id)
        XCTAssertEqual(Set(documented), Set(StepID.allCases.map(\.rawValue)))
        XCTAssertEqual(documented.count, Set(documented).count, "a step id has two sections")
    }

    func testEverySectionNamesTheFilesThatMakeItsSteps() throws {
        for (id, lines) in try sections() {
            guard let code = lines.first(where: { $0.hasPrefix("**Code:**") }) else {
                XCTFail("`\(id)` has no **Code:** line")
                continue
            }
            let files = code.split(separator: "`").enumerated().filter { $0.offset % 2 == 1 }.map { String($0.element) }
            XCTAssertFalse(files.isEmpty, id)
            for file in files {
                XCTAssertTrue(
                    FileManager.default.fileExists(atPath: Self.root.appendingPathComponent(file).path),
                    "`\(id)` names \(file), which does not exist")
            }
        }
    }

    func testEveryDocumentedFindingCarriesTheAppleCodesTheCodeGivesIt() throws {
        let findings = Dictionary(Self.everyFinding.map { (caseName($0), $0) }, uniquingKeysWith: { a, _ in a })
        let rows = try rows().filter { !$0.section.hasPrefix("ats-") }
        XCTAssertGreaterThan(rows.count, 80)
        for row in rows {
            guard let finding = findings[row.name] else {
                XCTFail("`\(row.section)` lists \(row.name), which no finding type has")
                continue
            }
            guard row.failed else { continue }
            XCTAssertEqual(finding.appleFailure?.check, row.check, "\(row.section): \(row.name)")
            XCTAssertEqual(finding.appleFailure?.osstatus, row.osstatus, "\(row.section): \(row.name)")
        }
    }

    func testEveryFindingIsDocumented() throws {
        let documented = Set(try rows().filter { !$0.section.hasPrefix("ats-") }.map(\.name))
        for finding in Self.everyFinding {
            XCTAssertTrue(
                documented.contains(caseName(finding)), "\(caseName(finding)) is in no table of docs/steps.md")
        }
    }

    func testNoFindingTextNamesACommandLineFlag() {
        // The engine speaks in settings; the command line maps its options onto them.
        for finding in Self.everyFinding {
            for text in [finding.title, finding.detail] {
                XCTAssertNil(text.range(of: #"--[a-z]"#, options: .regularExpression), "\(caseName(finding)): \(text)")
            }
        }
    }

    func testFindingsOfDifferentRulesAreNotEqual() {
        // Two types may share a case name and payload; the struct compares the rule too.
        XCTAssertNotEqual(
            Finding(KeySizeFinding.keyUnknown(label: "RSA")),
            Finding(ATSFinding.keyTypeRefused(label: "RSA", leaf: true)))
        XCTAssertEqual(
            Finding(KeySizeFinding.keyUnknown(label: "RSA")), Finding(KeySizeFinding.keyUnknown(label: "RSA")))
        XCTAssertNotEqual(
            Finding(KeySizeFinding.keyUnknown(label: "RSA")), Finding(KeySizeFinding.keyUnknown(label: "EC")))
    }

    /// One value of every case of every rule's finding type (ATS findings aside: their codes are
    /// the TLS layer's, documented in docs/ats.md).
    static let everyFinding: [Finding] = [
        Finding(BasicConstraintsFinding.leafNeedsNoCA),
        Finding(BasicConstraintsFinding.isCA(pathLength: nil)),
        Finding(BasicConstraintsFinding.missingBasicConstraints),
        Finding(BasicConstraintsFinding.notCA),
        Finding(BasicConstraintsFinding.pathLengthExceeded(limit: 0, actual: 0)),
        Finding(BasicConstraintsFinding.leafIsCA),
        Finding(BasicConstraintsFinding.v1Issuer),
        Finding(CertificatePoliciesFinding.policySet(policies: [])),
        Finding(CertificatePoliciesFinding.policyFailed(.tooLarge(limit: 0))),
        Finding(CertificateTransparencyFinding.ctNotRequired(reason: "", CTAssessment())),
        Finding(CertificateTransparencyFinding.ctSatisfied(CTAssessment())),
        Finding(CertificateTransparencyFinding.ctMissing(CTAssessment())),
        Finding(ChainFinding.chainComplete(length: 0)),
        Finding(ChainFinding.chainEndsSelfSigned(length: 0)),
        Finding(ChainFinding.issuerNotFound(issuer: "")),
        Finding(ChainFinding.depthExceeded(limit: 0)),
        Finding(ChainFinding.signatureValid(algorithm: "")),
        Finding(ChainFinding.signatureInvalid(candidate: "")),
        Finding(ChainFinding.signatureUnsupported(reason: "")),
        Finding(ChainFinding.anchorSignatureNotChecked),
        Finding(ChainFinding.anchoredAt(anchorClass: .system, name: "")),
        Finding(ChainFinding.selfSignedNotTrusted(name: "")),
        Finding(ChainFinding.noAnchor),
        Finding(ChainFinding.signatureKeyRefused(reason: "")),
        Finding(ChainFinding.removedRoot(name: "", note: "")),
        Finding(ChainFinding.anchoredAtConstrainedRoot(anchorClass: .system, name: "", constraint: sampleConstraint)),
        Finding(DateConstraintFinding.issuedWithinDateConstraint(sampleOutcome)),
        Finding(DateConstraintFinding.issuedOutsideDateConstraint(sampleOutcome)),
        Finding(DateConstraintFinding.issuedOutsideOverridableDateConstraint(sampleOutcome)),
        Finding(DateConstraintFinding.pathIssuedAfterCutoff(sampleOutcome)),
        Finding(DateConstraintFinding.pathIssuedAfterOverridableCutoff(sampleOutcome)),
        Finding(DateConstraintFinding.ctRequiredByDateConstraint(sampleOutcome)),
        Finding(ComplianceFinding.nonCompliant(detail: "")),
        Finding(ExtendedKeyUsageFinding.ekuServerAuth),
        Finding(ExtendedKeyUsageFinding.ekuMissingRequired(anchorClass: .system)),
        Finding(ExtendedKeyUsageFinding.ekuAbsentAllowed),
        Finding(ExtendedKeyUsageFinding.ekuLacks(purpose: "", present: [])),
        Finding(ExtendedKeyUsageFinding.caEKUAllows),
        Finding(ExtendedKeyUsageFinding.caEKULacks(purpose: "", present: [])),
        Finding(ExtendedKeyUsageFinding.ekuNotChecked),
        Finding(ExtendedKeyUsageFinding.ekuDeviceAnchorExempt(present: [])),
        Finding(ExtensionsFinding.criticalExtensionsUnderstood),
        Finding(ExtensionsFinding.unknownCriticalExtension(oid: "")),
        Finding(ExtensionsFinding.compliant),
        Finding(ExtensionsFinding.duplicateExtension(detail: "")),
        Finding(ExtensionsFinding.unparseableExtension(name: "", reason: "")),
        Finding(ExtensionsFinding.emptySubject),
        Finding(ExtensionsFinding.keyIdentifierMismatch),
        Finding(HostnameFinding.hostMatched(host: "", name: "")),
        Finding(HostnameFinding.hostMismatch(host: "", explanation: "")),
        Finding(HostnameFinding.hostNotChecked(reason: "")),
        Finding(HostnameFinding.hostIgnored(host: "", wouldMatch: false, explanation: "")),
        Finding(KeySizeFinding.keySizeOK(label: "", bits: 0)),
        Finding(KeySizeFinding.keyTooSmall(label: "", bits: 0, minimum: 0)),
        Finding(KeySizeFinding.keyWeak(label: "", bits: 0, minimum: 0)),
        Finding(KeySizeFinding.keyUnknown(label: "")),
        Finding(KeySizeFinding.keySizeDeviceAnchorExempt(label: "", bits: 0, minimum: 0)),
        Finding(KeyUsageFinding.keyUsageAbsent),
        Finding(KeyUsageFinding.keyUsageAllowsCertSign),
        Finding(KeyUsageFinding.keyUsageLacksCertSign(present: [])),
        Finding(KeyUsageFinding.keyUsageMissingOnCA),
        Finding(KeyUsageFinding.leafKeyUsage(present: [])),
        Finding(KeyUsageFinding.leafKeyUsageLacksSignature(present: [])),
        Finding(NameConstraintsFinding.noNameConstraints),
        Finding(NameConstraintsFinding.withinNameConstraints(count: 0)),
        Finding(NameConstraintsFinding.nameConstraintViolated(name: "", reason: "")),
        Finding(NameConstraintsFinding.nameConstraintFormUnsupported(form: "")),
        Finding(RevocationFinding.notRevoked(issuer: "")),
        Finding(RevocationFinding.certificateRevoked(date: Timestamp(year: 2025, month: 1, day: 1)!, source: "")),
        Finding(RevocationFinding.ocspGood(signer: "")),
        Finding(RevocationFinding.revocationNotChecked(reason: "")),
        Finding(RevocationFinding.responseRequired(reason: "")),
        Finding(SignatureAlgorithmFinding.signatureAlgorithmOK(name: "")),
        Finding(SignatureAlgorithmFinding.selfSignedHashExempt(name: "")),
        Finding(SignatureAlgorithmFinding.sha1Signature(name: "")),
        Finding(SignatureAlgorithmFinding.weakSignature(name: "")),
        Finding(SignatureAlgorithmFinding.signatureHashDeviceAnchorExempt(name: "")),
        Finding(
            ValidityFinding.withinValidity(
                notBefore: Timestamp(year: 2025, month: 1, day: 1)!, notAfter: Timestamp(year: 2025, month: 1, day: 1)!)
        ),
        Finding(ValidityFinding.expired(notAfter: Timestamp(year: 2025, month: 1, day: 1)!)),
        Finding(ValidityFinding.notYetValid(notBefore: Timestamp(year: 2025, month: 1, day: 1)!)),
        Finding(ValidityFinding.appleAnchorNeverExpires(sampleExpiry(.neverExpires(name: "Apple Root CA")))),
        Finding(ValidityFinding.withinEarlyExpiry(sampleExpiry(.early(judgedAt: Timestamp(secondsSinceEpoch: 0))))),
        Finding(ValidityFinding.expiresEarly(sampleExpiry(.early(judgedAt: Timestamp(secondsSinceEpoch: 1))))),
        Finding(ValidityPeriodFinding.periodWithin(days: 0, maximumDays: 0, rule: "")),
        Finding(ValidityPeriodFinding.periodTooLong(days: 0, maximumDays: 0, rule: "")),
        Finding(ValidityPeriodFinding.periodNoMaximum(reason: "")),
        Finding(ValidityPeriodFinding.periodDeviceAnchorExempt(days: 0)),
        Finding(PinFinding.pinMatched(pin: "")),
        Finding(PinFinding.pinNotMatched(count: 0)),
        Finding(PinFinding.pinNotChecked),
        Finding(PinFinding.noPins),
        Finding(BudgetFinding.budgetExhausted(budget: .paths, limit: 0)),
        Finding(PinnedDomainsFinding.notConsulted(reason: "")),
        Finding(PinnedDomainsFinding.noEntry(host: "", entries: 0)),
        Finding(PinnedDomainsFinding.leafMatched(domains: [], pin: "")),
        Finding(PinnedDomainsFinding.leafNotMatched(domains: [], pins: 0, usable: 0)),
        Finding(PinnedDomainsFinding.caMatched(domains: [], pin: "")),
        Finding(PinnedDomainsFinding.caNotMatched(domains: [], pins: 0, usable: 0, pathLength: 0)),
        Finding(KeySizeFinding.keySizeWholeBytes(label: "", bits: 0, minimum: 0)),
        Finding(KeySizeFinding.keyTooLargeToBuild(bits: 0, limit: 0)),
        Finding(ExtendedKeyUsageFinding.ekuServerGatedCrypto(present: [])),
        Finding(SystemPinningFinding.pinnedRuleMet(policy: "", rule: 0, rules: 0)),
        Finding(SystemPinningFinding.anchorNotApple(policy: "", anchor: "")),
        Finding(SystemPinningFinding.anchorNotListed(policy: "", anchor: "")),
        Finding(SystemPinningFinding.chainLengthMismatch(policy: "", expected: 0, actual: 0)),
        Finding(SystemPinningFinding.intermediateMarkerMissing(policy: "", oid: "")),
        Finding(SystemPinningFinding.intermediateCountryMismatch(policy: "", expected: "")),
        Finding(SystemPinningFinding.intermediateOrganizationMismatch(policy: "", expected: "")),
        Finding(SystemPinningFinding.leafMarkerMissing(policy: "", oids: [])),
        Finding(SystemPinningFinding.leafProductionMarkerMissing(policy: "", oids: [])),
        Finding(SystemPinningFinding.subjectOrganizationMismatch(policy: "", expected: "")),
        Finding(SystemPinningFinding.certificatePolicyMissing(policy: "", oid: "")),
    ]

    /// Does nothing; it stops compiling when a finding type gains a case `everyFinding` lacks.
    static func coverage(
        _ a: BasicConstraintsFinding, _ b: CertificatePoliciesFinding, _ c: CertificateTransparencyFinding,
        _ d: ChainFinding, _ e: ComplianceFinding, _ f: ExtendedKeyUsageFinding, _ g: ExtensionsFinding,
        _ h: HostnameFinding, _ i: KeySizeFinding, _ j: KeyUsageFinding, _ k: NameConstraintsFinding,
        _ l: RevocationFinding, _ m: SignatureAlgorithmFinding, _ n: ValidityFinding, _ o: ValidityPeriodFinding,
        _ p: PinFinding, _ q: BudgetFinding, _ r: PinnedDomainsFinding
    ) {
        switch a {
        case .leafNeedsNoCA, .isCA, .missingBasicConstraints, .notCA, .pathLengthExceeded, .leafIsCA, .v1Issuer: break
        }
        switch b {
        case .policySet, .policyFailed: break
        }
        switch c {
        case .ctNotRequired, .ctSatisfied, .ctMissing: break
        }
        switch d {
        case .chainComplete, .chainEndsSelfSigned, .issuerNotFound, .depthExceeded, .signatureValid, .signatureInvalid,
            .signatureUnsupported, .anchorSignatureNotChecked, .anchoredAt,
            .selfSignedNotTrusted, .noAnchor, .signatureKeyRefused, .removedRoot, .anchoredAtConstrainedRoot:
            break
        }
        switch e {
        case .nonCompliant: break
        }
        switch f {
        case .ekuServerAuth, .ekuMissingRequired, .ekuAbsentAllowed, .ekuLacks, .caEKUAllows, .caEKULacks,
            .ekuNotChecked, .ekuDeviceAnchorExempt, .ekuServerGatedCrypto:
            break
        }
        switch g {
        case .criticalExtensionsUnderstood, .unknownCriticalExtension, .compliant, .duplicateExtension,
            .unparseableExtension, .emptySubject, .keyIdentifierMismatch:
            break
        }
        switch h {
        case .hostMatched, .hostMismatch, .hostNotChecked, .hostIgnored: break
        }
        switch i {
        case .keySizeOK, .keyTooSmall, .keyWeak, .keyUnknown, .keySizeDeviceAnchorExempt, .keySizeWholeBytes,
            .keyTooLargeToBuild:
            break
        }
        switch j {
        case .keyUsageAbsent, .keyUsageAllowsCertSign, .keyUsageLacksCertSign, .keyUsageMissingOnCA, .leafKeyUsage,
            .leafKeyUsageLacksSignature:
            break
        }
        switch k {
        case .noNameConstraints, .withinNameConstraints, .nameConstraintViolated, .nameConstraintFormUnsupported: break
        }
        switch l {
        case .notRevoked, .certificateRevoked, .ocspGood, .revocationNotChecked, .responseRequired: break
        }
        switch m {
        case .signatureAlgorithmOK, .selfSignedHashExempt, .sha1Signature, .weakSignature,
            .signatureHashDeviceAnchorExempt:
            break
        }
        switch n {
        case .withinValidity, .expired, .notYetValid, .appleAnchorNeverExpires, .withinEarlyExpiry, .expiresEarly: break
        }
        switch o {
        case .periodWithin, .periodTooLong, .periodNoMaximum, .periodDeviceAnchorExempt: break
        }
        switch p {
        case .pinMatched, .pinNotMatched, .pinNotChecked, .noPins: break
        }
        switch q {
        case .budgetExhausted: break
        }
        switch r {
        case .notConsulted, .noEntry, .leafMatched, .leafNotMatched, .caMatched, .caNotMatched: break
        }
    }

    static func sampleExpiry(_ kind: AnchorExpiryRules.Kind) -> AnchorExpiryRules.Outcome {
        AnchorExpiryRules.Outcome(kind: kind, notAfter: Timestamp(secondsSinceEpoch: 0))
    }

    static let sampleConstraint = DateConstraint(sha256: "", name: "", cutoffDate: "", source: "")
    static let sampleOutcome = DateConstraintRules.Outcome(
        index: 0, constraint: sampleConstraint, kind: .within, issued: Timestamp(secondsSinceEpoch: 0))

    /// Does nothing; it stops compiling when the date-constraint finding gains a case `everyFinding` lacks.
    static func dateConstraintCoverage(_ s: DateConstraintFinding) {
        switch s {
        case .issuedWithinDateConstraint, .issuedOutsideDateConstraint, .issuedOutsideOverridableDateConstraint,
            .pathIssuedAfterCutoff, .pathIssuedAfterOverridableCutoff, .ctRequiredByDateConstraint:
            break
        }
    }

    /// Does nothing; it stops compiling when the system pinning finding gains a case `everyFinding` lacks.
    static func systemPinningCoverage(_ s: SystemPinningFinding) {
        switch s {
        case .pinnedRuleMet, .anchorNotApple, .anchorNotListed, .chainLengthMismatch, .intermediateMarkerMissing,
            .intermediateCountryMismatch, .intermediateOrganizationMismatch, .leafMarkerMissing,
            .leafProductionMarkerMissing, .subjectOrganizationMismatch, .certificatePolicyMissing:
            break
        }
    }
}
