import ServedChain
import TrustCore
import TrustLab
import TrustReport
import TrustSupport
import TrustX509

/// One line of the detail pane, before wrapping: a heading, a labelled field, or prose.
public struct DetailLine: Hashable, Sendable {
    /// How the line is drawn.
    public enum Kind: Hashable, Sendable {
        /// A section heading (`Subject`, `Extensions`).
        case heading
        /// `label  value`, the value wrapped under itself.
        case field(String)
        /// Prose, wrapped to the pane.
        case text
        /// A step's status line, drawn with its symbol and colour.
        case status(StepStatus)
    }

    /// How the line is drawn.
    public var kind: Kind
    /// The text (already sanitised where it came from a certificate or a server).
    public var text: String
    /// Left indent in cells.
    public var indent: Int

    /// Creates a line.
    /// Whether the line is evidence the step being walked through read (drawn lit up).
    public var lit = false

    public init(_ kind: Kind, _ text: String, indent: Int = 0) {
        self.kind = kind
        self.text = text
        self.indent = indent
    }
}

/// What the detail pane shows for the current selection, as lines (views wrap and draw them).
public enum DetailContent {
    /// The title of the detail pane for the current selection.
    public static func title(_ s: AppState) -> String {
        switch s.detailSubject {
        case .targets, .detail:
            return s.target.map { ($0.scenario == nil ? "Target " : "Scenario ") + clean($0.name) } ?? "Detail"
        case .chain:
            // No chain (the connection failed): the target and why it failed instead.
            guard s.chainRows.indices.contains(s.selectedCertificate) else {
                return s.target.map { ($0.scenario == nil ? "Target " : "Scenario ") + clean($0.name) } ?? "Certificate"
            }
            let row = s.chainRows[s.selectedCertificate]
            let index = row.section == .path ? "[\(row.index)]" : "#\(row.index) as sent"
            return "Certificate \(index)\(s.showsDER ? " DER" : "") \(clean(row.certificate.displayName))"
        case .steps:
            guard let step = s.selectedStepValue else {
                return s.target.map { ($0.scenario == nil ? "Target " : "Scenario ") + clean($0.name) } ?? "Step"
            }
            return "Step \(step.id.rawValue)\(step.certificate.map { "@\($0)" } ?? "")"
        }
    }

    /// The lines for the current selection.
    public static func lines(_ s: AppState) -> [DetailLine] {
        switch s.detailSubject {
        case .targets, .detail: return targetLines(s)
        case .chain:
            guard s.chainRows.indices.contains(s.selectedCertificate) else { return targetLines(s) }
            let row = s.chainRows[s.selectedCertificate]
            var lines = [DetailLine(.field(row.section == .path ? "Source" : "In the path"), row.source)]
            let c = row.certificate
            // How it was served (D440): each finding about this certificate, in full.
            if let e = s.evaluation, !s.verdictHidden {
                for f in ServedChainAnalysis.findings(e) where f.kind != .oversized {
                    let about = f.certificates.contains {
                        row.section == .sent
                            ? $0.presentedIndex == row.index : ($0.presentedIndex == nil && $0.pathIndex == row.index)
                    }
                    if about { lines.append(DetailLine(.field(f.kind.rawValue), f.explanation)) }
                }
            }
            if s.effectiveAnchors.contains(where: { $0.certificate == c }) {
                lines.append(DetailLine(.field("Anchor"), "custom anchor, \(s.anchorClassWords) (a stops trusting it)"))
            }
            if s.toggles.pins.contains(c.spkiSHA256) {
                lines.append(DetailLine(.field("Pinned"), "sha256//\(c.spkiPin) (P unpins it)"))
            }
            if s.showsDER { return lines + derLines(c) }
            return lines + CertificateFields.lines(c, at: s.evaluationTime)
        case .steps:
            guard let step = s.selectedStepValue else { return targetLines(s) }
            // A walk-through shows only the steps it revealed, so it may go on during a vote.
            if s.walk != nil { return stepLines(step, s) + evidence(step, s) }
            if s.verdictHidden { return [DetailLine(.text, "Hidden until the vote: Space reveals the verdict.")] }
            return stepLines(step, s)
        }
    }

    /// The certificate's DER tree, one element a line, indented by depth.
    static func derLines(_ c: Certificate) -> [DetailLine] {
        let tree = DERTree.parse(c.der)
        var out = [
            DetailLine(
                .heading, "DER, \(c.der.count) bytes: offset, depth, header and content length, tag (D: fields)")
        ]
        for node in tree.nodes {
            // The text is sanitised where it is made (DERTree); the indent is capped so deep
            // elements keep room in a narrow pane.
            out.append(DetailLine(.text, node.text, indent: min(node.depth, 8) * 2))
        }
        if let problem = tree.problem { out.append(DetailLine(.text, "stopped: " + clean(problem))) }
        return out
    }

    /// The certificate a walked-through step judged, with the fields it read lit up.
    static func evidence(_ step: Step, _ s: AppState) -> [DetailLine] {
        guard let e = s.evaluation else { return [] }
        let index = step.certificate ?? 0
        guard e.path.certificates.indices.contains(index) else { return [] }
        let read = fieldsRead(by: step.id)
        var out = [DetailLine(.heading, "Evidence: [\(index)] \(clean(e.path.certificates[index].displayName))")]
        var inLitExtension = false
        for var line in CertificateFields.lines(e.path.certificates[index], at: s.evaluationTime) {
            switch line.kind {
            case .field(let label): line.lit = read.fields.contains(label)
            case .heading: line.lit = read.headings.contains { line.text.hasPrefix($0) }
            case .text:
                // An extension's head line (indent 2) starts a block its values (indent 4) belong to.
                if line.indent <= 2 {
                    inLitExtension =
                        read.extensions.contains { line.text.hasPrefix($0 + " ") || line.text == $0 }
                        || (read.critical && line.text.contains(" critical"))
                }
                line.lit = inLitExtension
            case .status: break
            }
            out.append(line)
        }
        return out
    }

    /// What each step reads of a certificate: field labels, section headings, extension names.
    static func fieldsRead(by id: StepID) -> (
        fields: Set<String>, headings: [String], extensions: [String], critical: Bool
    ) {
        switch id {
        case .validity: return (["Not before", "Not after", "At eval time"], ["Validity"], [], false)
        case .validityPeriodMaximum: return (["Not before", "Not after", "Lifetime"], ["Validity"], [], false)
        case .keySize, .atsKeySize: return (["Type", "Size", "Curve"], ["Public key"], [], false)
        case .signatureAlgorithm, .signature, .atsSignatureHash: return (["Signature"], ["Issuer"], [], false)
        case .chain, .anchor:
            return ([], ["Issuer", "Subject"], ["authorityKeyIdentifier", "subjectKeyIdentifier"], false)
        case .hostname: return ([], [], ["subjectAltName"], false)
        case .extendedKeyUsage: return ([], [], ["extKeyUsage"], false)
        case .keyUsage: return ([], [], ["keyUsage"], false)
        case .basicConstraints: return ([], [], ["basicConstraints"], false)
        case .nameConstraints: return ([], [], ["nameConstraints", "subjectAltName"], false)
        case .certificatePolicies:
            return ([], [], ["certificatePolicies", "policyConstraints", "policyMappings", "inhibitAnyPolicy"], false)
        case .criticalExtensions, .compliance: return ([], [], [], true)
        case .pin, .pinnedDomains: return (["SPKI pin"], [], [], false)
        default: return ([], [], [], false)
        }
    }

    static func clean(_ text: String) -> String { TerminalSanitizer.sanitize(text) }

    static func targetLines(_ s: AppState) -> [DetailLine] {
        guard let t = s.target else {
            switch s.lab {
            case .starting: return [DetailLine(.text, "Starting the lab on 127.0.0.1...")]
            case .failed(let why): return [DetailLine(.text, "The lab could not start: \(clean(why))")]
            default: return [DetailLine(.text, "Nothing to explore.")]
            }
        }
        // A watched target's changes come first: they are what its user is waiting for.
        var out = watchLines(s)
        if let why = t.unavailable {
            out.append(DetailLine(.field("Unavailable"), "not served: " + clean(why)))
            out.append(DetailLine(.text, ""))
        }
        // The lesson's answers wait while the room votes (predict mode).
        let answers = !s.hidesAnswers
        if let scenario = t.scenario {
            out.append(DetailLine(.text, clean(scenario.lesson)))
            out.append(DetailLine(.text, ""))
            out.append(DetailLine(.field("Rule"), clean(scenario.rule)))
            if answers {
                out.append(DetailLine(.field("Expected"), expectation(scenario.expectation)))
                if let network = scenario.networkOnly { out.append(DetailLine(.field("Network"), clean(network))) }
            } else {
                let why =
                    s.verdictRevealed ? "hidden while the room votes (e shows them)" : "hidden until the verdict shows"
                out.append(DetailLine(.field("Expected"), why))
            }
        }
        if !t.location.isEmpty { out.append(DetailLine(.field("Target"), clean(t.location))) }
        // Where the connection goes and which name the policy checks are two things: an address
        // reached for one name, while `h` or the policy may check another (D297).
        if let (probe, _) = t.server {
            let via = probe.connectTo != nil ? " (--connect-to, for \(probe.host))" : ""
            out.append(DetailLine(.field("Address"), clean(probe.dialEndpoint.description + via)))
        }
        if !t.host.isEmpty { out.append(DetailLine(.field("Host checked"), clean(hostChecked(s, t)))) }
        for entry in s.effectiveAnchors {
            let from = entry.file.map { " (\($0))" } ?? " (made an anchor in this session)"
            out.append(
                DetailLine(.field("Anchor"), clean(entry.certificate.displayName + from + ", " + s.anchorClassWords)))
        }
        if answers, let scenario = t.scenario, !scenario.variations.isEmpty {
            out.append(DetailLine(.heading, "Try"))
            for v in scenario.variations {
                out.append(DetailLine(.field(variationLabel(v)), "\(expectation(v.expectation)): \(clean(v.why))"))
            }
        }
        if let scenario = t.scenario, !scenario.atsCases.isEmpty {
            // The lesson's Info.plists are in the lab's directory: `L` loads one by its path.
            out.append(DetailLine(.heading, "ATS: i applies ATS's defaults, L loads one of these Info.plists"))
            if case .running(let directory) = s.lab { out.append(DetailLine(.field("Directory"), clean(directory))) }
            for c in scenario.atsCases {
                let device = c.anchorClass == .device ? " (with C: the CA trusted on the device)" : ""
                // While the room votes, the file names stay (L needs them), their outcomes do not.
                out.append(
                    DetailLine(
                        .field("\(scenario.name).\(c.label).plist"),
                        answers
                            ? "\(expectation(c.expectation))\(device): \(clean(c.why))" : "hidden while the room votes")
                )
            }
        }
        switch s.chain {
        case .idle: break
        case .connecting: out.append(DetailLine(.heading, "Connecting..."))
        case .ready(let result):
            out.append(DetailLine(.heading, "Connection"))
            for (label, value) in connectionRows(result.report) where label != "Failure" || s.verdictRevealed {
                out.append(DetailLine(.field(label), clean(value)))
            }
        }
        if let e = s.evaluation, s.verdictRevealed {
            out += atsLines(e)
            out.append(DetailLine(.heading, "Verdict"))
            out.append(DetailLine(.text, clean(e.verdict.summary)))
            out.append(DetailLine(.field("Result type"), e.verdict.resultType.rawValue))
            if let c = e.storeComparison {
                out.append(DetailLine(.field("Trusted by"), clean(ReportFormatting.trustedBy(c))))
            }
        }
        return out
    }

    /// The name the current policy checks, and where it comes from when it is not the target's.
    static func hostChecked(_ s: AppState, _ t: ExplorerTarget) -> String {
        let host = s.checkedHost
        switch s.toggles.policy {
        case .sslWithHost where !host.isEmpty:
            if host == t.host || t.host.isEmpty { return host }
            return "\(host) (from --host or h; the target's name is \(t.host))"
        case .sslWithHost, .sslWithoutHost: return "none: the SSL policy with a nil host checks no name"
        case .basicX509: return "none: Basic X.509 checks no name" + (host.isEmpty ? "" : " (the app holds \(host))")
        }
    }

    /// What ATS requires of this host and why, as the reports say it (nothing when ATS is off).
    static func atsLines(_ e: Evaluation) -> [DetailLine] {
        let rows = ReportFormatting.atsRows(e)
        guard !rows.isEmpty else { return [] }
        return [DetailLine(.heading, "App Transport Security")]
            + rows.map { DetailLine(.field($0.0.prefix(1).uppercased() + $0.0.dropFirst()), clean($0.1)) }
    }

    /// A variation's `check` options, in words the toggles also use: file and key names stand
    /// for the lab's paths and pins. Leaving the scenario's anchor out reads `no --anchor` alone,
    /// and `--anchor FILE instead of the scenario's` when another anchor takes its place.
    static func variationLabel(_ v: LabVariation) -> String {
        var words = v.options(.names)
        if !v.keepsScenarioAnchor {
            if words.contains("--anchor") {
                words.append("instead of the scenario's")
            } else {
                words.insert("no --anchor", at: 0)
            }
        }
        let served = v.leaf.map { " (leaf \($0) served)" } ?? ""
        return (words.isEmpty ? "defaults" : words.joined(separator: " ")) + served
    }

    /// `trusted`, or `-67602 errSecHostNameMismatch, URLError -999`.
    static func expectation(_ e: LabExpectation) -> String {
        if e.trusted { return "trusted" }
        var parts: [String] = []
        if let status = e.osstatus {
            parts.append(status == 0 ? "evaluation passes" : "\(status) \(OSStatusNames.name(status))")
        } else {
            parts.append("no evaluation")
        }
        if let url = e.urlError { parts.append("URLError \(url)") }
        return parts.joined(separator: ", ")
    }

    /// The connection facts as label/value pairs.
    static func connectionRows(_ r: ConnectionReport) -> [(String, String)] {
        var out: [(String, String)] = []
        var where_ = "\(r.target.host) port \(r.target.port)"
        if let c = r.target.connectTo { where_ += " via \(c)" }
        out.append(("Server", where_))
        if let p = r.target.proxy { out.append(("Proxy", p)) }
        if let s = r.target.startTLS { out.append(("STARTTLS", s)) }
        out.append(("SNI", r.target.sni ?? "none"))
        if let peer = r.peerAddress { out.append(("Peer", peer)) }
        if let v = r.protocolVersion { out.append(("Protocol", v)) }
        if let c = r.cipher { out.append(("Cipher", c)) }
        if let g = r.group { out.append(("Group", g)) }
        if r.failure == nil {
            out.append(("OCSP", r.ocsp ?? "not stapled"))
            out.append(("SCTs", String(r.scts)))
            out.append(("Client cert", r.clientCertificateRequested ? "requested" : "not requested"))
        }
        if let c = r.connectMs, let h = r.handshakeMs {
            out.append(
                ("Timings", "connect \(formatMilliseconds(c)) ms, handshake \(formatMilliseconds(h)) ms"))
        }
        for f in r.aiaFetches { out.append(("AIA", "\(f.url): \(f.outcome)")) }
        if let hello = r.appleClientHello { out.append(("iOS 26 hello", hello.summary)) }
        if let f = r.failure {
            var text = "\(f.message) [\(f.kind)]"
            if let url = f.urlError { text += "; URLError \(url) \(URLErrorNames.name(url))" }
            out.append(("Failure", text))
        }
        return out
    }

    static func stepLines(_ step: Step, _ s: AppState) -> [DetailLine] {
        var out: [DetailLine] = []
        var status = step.status.identifier
        if case .skipped(let why) = step.status { status += ": \(why)" }
        out.append(DetailLine(.status(step.status), "\(status) \(clean(step.title))"))
        if let cert = step.certificate, let e = s.evaluation, e.path.certificates.indices.contains(cert) {
            out.append(DetailLine(.field("Certificate"), "[\(cert)] \(clean(e.path.certificates[cert].displayName))"))
        } else {
            out.append(DetailLine(.field("Scope"), "the whole path"))
        }
        if let f = step.appleFailure {
            out.append(DetailLine(.field("Apple check"), "\(f.check) (subtype \(f.subtype.name))"))
            out.append(DetailLine(.field("OSStatus"), "\(f.osstatus) \(OSStatusNames.name(f.osstatus))"))
            if f.fatal { out.append(DetailLine(.field("Result"), "fatalTrustFailure")) }
        } else if let f = step.finding.atsFailure {
            // ATS refuses in the TLS layer: a SecureTransport code, not a SecTrust result.
            let url = f.phase == .beforeConnection ? "URLError -1022" : "URLError -1200 (stream -9802)"
            out.append(DetailLine(.field("ATS"), "refused in the \(f.phase.rawValue) phase; \(url)"))
            if f.osstatus != 0 {
                out.append(DetailLine(.field("OSStatus"), "\(f.osstatus) \(OSStatusNames.name(f.osstatus))"))
            }
        } else if step.status == .failed {
            let why =
                step.id == .pin
                ? "the app's delegate cancels the challenge; no OSStatus" : "the path is discarded; no OSStatus"
            out.append(DetailLine(.field("Apple"), why))
        }
        if let decisive = s.evaluation?.verdict.decisiveStep, decisive == step {
            out.append(DetailLine(.field("Decisive"), "this failure decides the OSStatus (Apple's priority rule)"))
        }
        if let index = s.evaluation?.steps.firstIndex(of: step), let change = s.change,
            change.changedSteps.contains(index)
        {
            out.append(DetailLine(.field("Changed"), "by \(change.cause)"))
        }
        out.append(DetailLine(.heading, "Rule"))
        for paragraph in step.detail.split(separator: "\n", omittingEmptySubsequences: false) {
            out.append(DetailLine(.text, clean(String(paragraph))))
        }
        if step.id.rawValue.hasPrefix("ats-"), let e = s.evaluation { out += atsLines(e) }
        // Apple's published CT policy beside trustd's code: advice, the verdict is the code's.
        if let advice = step.finding.certificateTransparency?.publishedPolicyAdvice, !advice.isEmpty {
            out.append(DetailLine(.heading, "Apple's published CT policy"))
            for a in advice { out.append(DetailLine(.text, clean(a.message))) }
        }
        // Pin advice belongs with the steps that check pins: what will break later, not now.
        if step.id == .pin || step.id == .pinnedDomains, let advice = s.evaluation?.pinAdvice {
            let mine = advice.filter { a in
                if case .option = a.source { return step.id == .pin }
                return step.id == .pinnedDomains
            }
            if !mine.isEmpty {
                out.append(DetailLine(.heading, "Pin advice"))
                for a in mine { out.append(DetailLine(.text, clean("\(a.sourceDescription): \(a.message)"))) }
            }
        }
        return out
    }
}
