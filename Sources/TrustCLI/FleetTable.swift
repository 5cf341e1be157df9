import TrustCore
import TrustReport
import TrustSupport
import TrustX509

/// The summary of several checks: one row per check with what an on-call engineer compares
/// across a pool (where it connected, what it negotiated, the verdict with Apple's code, which
/// leaf it sent, when it expires and who issued it). Every cell that came from a server is
/// sanitised; the issuer is cut to a width that keeps a row on one screen line.
enum FleetTable {
    static let headers = ["TARGET", "ADDRESS", "TLS", "VERDICT", "LEAF SHA-256", "NOT AFTER", "ISSUER"]
    /// The most characters of an issuer or target a row shows.
    static let cellLimit = 48

    /// The cells of one row, sanitised and cut.
    static func cells(label: String, outcome: FleetCheck.Outcome) -> [String] {
        let connection = outcome.connection
        var address = "-"
        if let c = connection {
            address = c.peerAddress ?? c.target.connectTo ?? "\(c.target.host):\(c.target.port)"
        }
        let leaf = outcome.evaluation?.presented.first
        let row = [
            label, address, connection?.protocolVersion ?? "-", verdict(outcome),
            leaf.map { String(hexString($0.sha256).prefix(16)) } ?? "-",
            leaf.map { $0.notAfter.rfc3339 } ?? "-",
            leaf.map { $0.issuer.description } ?? "-",
        ]
        return row.map { cut(TerminalSanitizer.sanitize($0)) }
    }

    /// `trusted`, or `not trusted: NAME (CODE)` with Apple's OSStatus, or the URLError of a
    /// connection that failed before a chain arrived.
    static func verdict(_ outcome: FleetCheck.Outcome) -> String {
        if let e = outcome.evaluation {
            let v = e.verdict
            if v.trusted, case .success = outcome.result { return "trusted" }
            if v.trusted, case .failure(let f) = outcome.result { return "failed: \(f.message)" }
            // SecTrust passed and the app refused after it (a pin the delegate checks, ATS):
            // errSecSuccess says nothing, the URLError is the answer the app gets.
            if v.osstatus == 0, let code = v.urlError, let name = v.urlErrorName {
                return "not trusted: \(name) (\(code))"
            }
            return "not trusted: \(v.osstatusName) (\(v.osstatus))"
        }
        guard case .failure(let f) = outcome.result else { return "-" }
        if case .connection(let c, _) = f.detail {
            if let code = c.failure?.urlError { return "failed: \(URLErrorNames.name(code)) (\(code))" }
            return "failed: \(CheckCommand.connectionFailureLine(c))"
        }
        return "error: \(f.message)"
    }

    static func cut(_ s: String) -> String {
        s.count <= cellLimit ? s : String(s.prefix(cellLimit - 1)) + "…"
    }

    /// The table in aligned columns, then one line per check that failed to connect, with why.
    static func text(labels: [String], outcomes: [FleetCheck.Outcome]) -> String {
        let rows = zip(labels, outcomes).map { cells(label: $0, outcome: $1) }
        var widths = headers.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ row: [String]) -> String {
            var out = ""
            for (i, cell) in row.enumerated() {
                out += i == row.count - 1 ? cell : cell + String(repeating: " ", count: widths[i] - cell.count + 2)
            }
            return out + "\n"
        }
        var out = line(headers) + rows.map(line).joined()
        out += "\n" + summary(outcomes) + "\n"
        for failure in failures(labels: labels, outcomes: outcomes) {
            out += TerminalSanitizer.sanitize(failure) + "\n"
        }
        return out
    }

    /// `N of M trusted`, and how many could not be checked.
    static func summary(_ outcomes: [FleetCheck.Outcome]) -> String {
        let trusted = outcomes.filter { $0.status == .success }.count
        var out = "\(trusted) of \(outcomes.count) trusted"
        let failed = outcomes.filter { $0.status == .unavailable }.count
        if failed > 0 { out += ", \(failed) could not be checked" }
        return out
    }

    /// One line per check whose connection failed, with why (not sanitised: each format escapes).
    static func failures(labels: [String], outcomes: [FleetCheck.Outcome]) -> [String] {
        zip(labels, outcomes).compactMap { label, outcome in
            guard case .failure(let f) = outcome.result, case .connection(let c, _) = f.detail else { return nil }
            return "\(InputExcerpt.quote(label)): \(CheckCommand.connectionFailureLine(c))"
        }
    }

    /// The table as Markdown.
    static func markdown(labels: [String], outcomes: [FleetCheck.Outcome]) -> String {
        func row(_ cells: [String]) -> String {
            "| " + cells.map { $0.replacingPipes() }.joined(separator: " | ") + " |\n"
        }
        var out = row(headers) + "|" + String(repeating: " --- |", count: headers.count) + "\n"
        for (label, outcome) in zip(labels, outcomes) { out += row(cells(label: label, outcome: outcome)) }
        // As in text, what the table leaves to be counted and why the failures failed.
        out += "\n" + summary(outcomes) + "\n"
        let failed = failures(labels: labels, outcomes: outcomes)
        if !failed.isEmpty { out += "\n" + failed.map { "- " + MarkdownReport.escape($0) + "\n" }.joined() }
        return out
    }
}

extension String {
    /// `|` escaped for a Markdown table cell.
    fileprivate func replacingPipes() -> String {
        var out = ""
        for c in self { out += c == "|" ? "\\|" : String(c) }
        return out
    }
}
