import CommandLineSpec
import Foundation
import SuiteFixtures
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// A new user's first minutes on the command line: the lab's options on plain `trustx`, errors of
/// one line, the explorer without a terminal, STARTTLS targets that say what they waited for,
/// exports that keep earlier files, help that says where the lab is. Run against the built binary.
@Suite(.serialized, .onTestThreads) final class NewcomerCLITests {
    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    var pki: TestPKI { get throws { try TestPKI.get() } }

    // MARK: Defect 2: plain trustx takes what explore takes for the lab

    @Test func testPlainTrustxTakesTheThemeOptionLikeExplore() throws {
        // Without a terminal the explorer cannot open, but the option was taken: the reason is the
        // terminal, not an unknown option.
        let runs = try CLI.runAll([
            ["--theme", "high-contrast"], ["--theme", "no-such-theme"], ["explore", "--theme", "no-such-theme"],
        ]).map { try $0.get() }
        let run = runs[0]
        #expect(run.status == 64, "\(run.err)")
        #expect(!(run.err.contains("Unknown option")), "\(run.err)")
        #expect(run.err.contains("needs a terminal"), "\(run.err)")
        // The value is read as a theme, as `explore --theme` reads it: an unknown name is 66.
        let unknown = runs[1]
        #expect(unknown.status == 66, "\(unknown.err)")
        #expect(unknown.err.hasPrefix("Error: no theme named 'no-such-theme'"), "\(unknown.err)")
        let explore = runs[2]
        #expect(explore.status == unknown.status)
        #expect(explore.err == unknown.err)
    }

    @Test func testPlainTrustxTakesTheLabsOtherOptionsButNotATarget() throws {
        let runs = try CLI.runAll([
            ["--at", "2030-01-01T00:00:00Z", "--policy", "basic", "--anchor", try pki.path("ca.pem")],
            ["--at", "tomorrow"], ["--chain", try pki.path("leaf.pem")],
        ]).map { try $0.get() }
        let run = runs[0]
        #expect(run.status == 64)
        #expect(run.err.contains("needs a terminal"), "\(run.err)")
        // A bad value is checked as explore checks it, and pointed at trustx's own help.
        let bad = runs[1]
        #expect(bad.status == 64)
        #expect(
            bad.err
                == "Error: The value 'tomorrow' is invalid for '--at <time>': expected RFC 3339, e.g. 2027-01-01T00:00:00Z\nSee 'trustx --help' for more information.\n"
        )
        let chain = runs[2]
        #expect(chain.status == 64)
        #expect(chain.err.hasPrefix("Error: Unknown option '--chain'"), "\(chain.err)")
    }

    // MARK: Defect 11: one line of error

    @Test func testAUsageErrorIsOneLineThenWhereToFindHelp() throws {
        let r = try CLI.run(["check", "--chain", try pki.path("leaf.pem"), "--polcy", "ssl"])
        #expect(r.status == 64)
        #expect(r.out == "")
        // swift-argument-parser's convention, without the 450-character usage line between.
        #expect(
            r.err
                == "Error: Unknown option '--polcy'. Did you mean '--policy'?\nSee 'trustx check --help' for more information.\n"
        )
    }

    @Test func testAFailedConnectionInTextIsOneLineOfError() throws {
        let refusing = try RefusingPort()
        defer { refusing.release() }
        let port = refusing.port
        let runs = try CLI.runAll([
            ["check", "127.0.0.1:\(port)"], ["check", "127.0.0.1:\(port)", "--format", "json"],
        ])
        .map { try $0.get() }
        let r = runs[0]
        #expect(r.status == 69)
        #expect(r.out == "")
        #expect(
            r.err
                == ("Error: 127.0.0.1:\(port) refused the connection: nothing listens on that port; URLSession reports NSURLErrorCannotConnectToHost (-1004)\n")
        )
        // JSON keeps the whole report.
        let json = runs[1]
        #expect(json.status == 69)
        #expect((try json.json()["connection"]) != nil)
    }

    // MARK: Defect 12: explore without a terminal is a usage error

    @Test func testExploreWithoutATerminalIsAUsageErrorWithAHint() throws {
        let r = try CLI.run(["explore"])
        #expect(r.status == 64)
        #expect(r.out == "")
        #expect(
            r.err
                == "Error: the explorer needs a terminal: standard input and output must be a tty. For non-interactive use, run 'trustx check'.\n"
        )
    }

    // MARK: Defect 13: STARTTLS says what it waited for

    /// Every run against a server that never speaks, started side by side once per class: FTP in
    /// text and JSON, and each other STARTTLS protocol. Each waits out its 0.4 s deadline (the
    /// server never speaks, so a longer wait would only end the same way later), all at once.
    static let silentRuns: Result<[String: Result<RunResult, any Error>], any Error> = Result {
        // A server that accepts and says nothing, as a TLS server does before a ClientHello.
        let server = try LoopbackListener { c in
            var buffer = [UInt8](repeating: 0, count: 256)
            while read(c, &buffer, buffer.count) > 0 {}
            close(c)
        }
        defer { server.stop() }
        let deadline = ["--timeout", "0.4"]
        var runs: [String: [String]] = [
            "ftp": ["check", "ftp://127.0.0.1:\(server.port)"] + deadline,
            "ftp-json": ["check", "ftp://127.0.0.1:\(server.port)", "--format", "json"] + deadline,
        ]
        for proto in ["smtp", "imap", "pop3", "postgres"] {
            runs[proto] = ["check", "127.0.0.1:\(server.port)", "--starttls", proto] + deadline
        }
        let names = Array(runs.keys)
        // A thread each: the runs mostly wait.
        let results = CLI.runAll(names.map { runs[$0]! }, width: names.count)
        return Dictionary(uniqueKeysWithValues: zip(names, results))
    }

    /// The result of the silent-server run named `name` in `silentRuns`.
    func silentRun(_ name: String) throws -> RunResult {
        try #require(try Self.silentRuns.get()[name], "\(name)").get()
    }

    @Test func testAnFTPTargetThatNeverGreetsSaysItWaitedForAnFTPGreeting() throws {
        let text = try silentRun("ftp")
        #expect(text.status == 69)
        // RFC 959: an FTP server greets with 220; RFC 4217: TLS is asked for with AUTH TLS.
        #expect(text.err.contains("an FTP server's 220 greeting and its answer to AUTH TLS"), "\(text.err)")
        #expect(text.err.contains("FTP STARTTLS"), "\(text.err)")
        #expect(text.err.contains("-1001"), "\(text.err)")
        let json = try silentRun("ftp-json")
        let report = try json.json()
        let connection = try #require(report["connection"] as? [String: Any])
        let target = try #require(report["target"] as? [String: Any])
        #expect((target["startTLS"] as? String) == "ftp")
        let error = try #require(connection["error"] as? [String: Any])
        #expect((error["message"] as? String ?? "").contains("FTP STARTTLS"), "\(error)")
        // A server that hangs up at once: the preamble's own error says the same.
        let closing = try LoopbackListener { close($0) }
        defer { closing.stop() }
        let last = try CLI.runAll([
            ["check", "ftp://127.0.0.1:\(closing.port)", "--timeout", "5"], ["check", "--help"],
        ])
        .map { try $0.get() }
        let closed = last[0]
        #expect(closed.status == 69)
        #expect(
            closed.err.contains(
                "closed the connection while waiting for an FTP server's 220 greeting and its answer to AUTH TLS"),
            "\(closed.err)")
        // The help says what ftp:// means.
        #expect(last[1].out.contains("ftp:// is FTP with AUTH TLS on 21"), "\(last[1].out)")
    }

    @Test func testEverySTARTTLSProtocolSaysWhatItWaitedFor() throws {
        // What each protocol's server sends first: SMTP 220 (RFC 5321), IMAP "* OK" (RFC 9051),
        // POP3 "+OK" (RFC 1939), PostgreSQL's answer to SSLRequest.
        let expected = [
            "smtp": "an SMTP server's 220 greeting", "imap": "an IMAP server's * OK greeting",
            "pop3": "a POP3 server's +OK greeting", "postgres": "a PostgreSQL server's answer to SSLRequest",
        ]
        for (proto, waited) in expected {
            let r = try silentRun(proto)
            #expect(r.status == 69, "\(proto)")
            #expect(r.err.contains(waited), "\(proto): \(r.err)")
        }
    }

    // MARK: Defect 6: an export says what it cannot express

    @Test func testCurlExportWithAnEvaluationTimeCommentsThatCurlUsesTheCurrentTime() throws {
        // curl without pins needs no connection: the command is written from the settings.
        let runs = try CLI.runAll([
            ["export", "curl", "https://127.0.0.1:1/", "--at", "2030-01-01T00:00:00Z"],
            ["export", "curl", "https://127.0.0.1:1/"],
        ]).map { try $0.get() }
        let r = runs[0]
        #expect(r.status == 0, "\(r.err)")
        #expect(
            r.out.contains("\n# Not expressed: --at 2030-01-01T00:00:00Z: curl evaluates at the current time"),
            "\(r.out)")
        #expect(r.err == "trustx: note: the curl export cannot express --at; a comment in it says how it differs.\n")
        let plain = runs[1]
        #expect(!(plain.out.contains("Not expressed")), "\(plain.out)")
        #expect(plain.err == "")
    }

    // MARK: Defect 14: exports keep earlier files; help says where the lab is

    @Test func testExportRefusesToReplaceAnOutputFileWithoutForce() throws {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let output = dir.appendingPathComponent("PinnedTrustDelegate.swift")
        try "// edited by hand\n".write(to: output, atomically: true, encoding: .utf8)
        let args = ["export", "swift", "--chain", try pki.path("leaf.pem"), "--output", output.path]
        let refused = try CLI.run(args)
        #expect(refused.status == 73)
        #expect(refused.err.hasPrefix("Error: \(output.path) exists; give --force to replace it"), "\(refused.err)")
        #expect((try String(contentsOf: output, encoding: .utf8)) == "// edited by hand\n")
        let forced = try CLI.run(args + ["--force"])
        #expect(forced.status == 0, "\(forced.err)")
        #expect(try String(contentsOf: output, encoding: .utf8).contains("PinnedTrustDelegate"))
        // A new file needs no --force.
        let fresh = dir.appendingPathComponent("fresh.swift")
        let created = try CLI.run(["export", "swift", "--chain", try pki.path("leaf.pem"), "--output", fresh.path])
        #expect(created.status == 0, "\(created.err)")
    }

    @Test func testTopLevelHelpSaysNoArgumentsOpensTheLab() throws {
        let r = try CLI.run(["--help"])
        #expect(r.status == 0)
        let text = r.out.replacingOccurrences(of: "\n", with: " ")
        #expect(
            text.contains("With no subcommand, trustx opens the interactive explorer on the built-in lab"), "\(r.out)")
        #expect(text.contains("--theme high-contrast"), "\(r.out)")
        #expect(r.out.contains("USAGE: trustx [<explore's options for the lab>]\n       trustx <subcommand>"))
    }

    @Test func testLabHelpPointsToTheInteractiveLab() throws {
        let r = try CLI.run(["lab", "--help"])
        #expect(r.status == 0)
        let text = r.out.replacingOccurrences(of: "\n", with: " ")
        #expect(text.contains("run trustx with no subcommand (or trustx explore)"), "\(r.out)")
    }

    // MARK: Build 2: completions, the man page, the README

    /// `trustx completions bash`, asked once per class.
    static let bashScript: Result<Data, any Error> = Result {
        let script = try CLI.run(["completions", "bash"])
        guard script.status == 0 else { throw TestPKI.Failure(message: "completions bash: \(script.err)") }
        return script.stdout
    }

    /// Runs the bash completion function once for each list of words (the last one being
    /// completed), all in one bash, and returns each run's completions.
    func bashComplete(_ cases: [[String]]) throws -> [[String]] {
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("trustx.bash")
        try Self.bashScript.get().write(to: file)
        let end = "--trustx-end-of-completions--"
        var program = "source '\(file.path)'\n"
        for words in cases {
            let quoted = words.map { "'" + $0.replacingOccurrences(of: "'", with: "'\\''") + "'" }.joined(
                separator: " ")
            program += """
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMPREPLY=()
                _trustx
                printf '%s\\n' "${COMPREPLY[@]}" '\(end)'

                """
        }
        let r = try Shell.run(URL(fileURLWithPath: "/bin/bash"), ["-c", program], in: dir)
        #expect(r.status == 0, "\(r.err)")
        let replies = r.out.components(separatedBy: end + "\n").dropLast().map {
            $0.split(separator: "\n").map(String.init)
        }
        #expect(replies.count == cases.count, "\(r.out)")
        return replies.count == cases.count ? replies : cases.map { _ in [] }
    }

    @Test func testBashCompletesThePolicyOptionAndItsValues() throws {
        let replies = try bashComplete([
            ["trustx", "check", "--po"], ["trustx", "check", "--policy", ""], ["trustx", "check", "--policy", "ssl-"],
        ])
        #expect(replies[0] == ["--policy"])
        // docs/cli.md: --policy ssl|ssl-no-host|basic.
        #expect((replies[1].sorted()) == ["basic", "ssl", "ssl-no-host"])
        #expect(replies[2] == ["ssl-no-host"])
    }

    @Test func testBashCompletesEveryOptionTheHelpListsAndTheSubcommands() throws {
        let commands = ["check", "explore", "export", "pin", "lab", "ats", "lint"]
        let helps = try CLI.runAll(commands.map { [$0, "--help"] } + [["--help"]]).map { try $0.get().out }
        let root = helps[commands.count]
        let subcommands = root.components(separatedBy: "SUBCOMMANDS:\n").last!.split(separator: "\n").compactMap {
            line -> String? in
            line.hasPrefix("  ") && !line.hasPrefix("   ") && !line.hasPrefix("  See")
                ? String(line.dropFirst(2).prefix { $0 != " " }) : nil
        }
        #expect(subcommands.contains("completions"), "\(root)")
        // Every completion in one bash: each command's options, the subcommands, files where a
        // file is expected, a format.
        let replies = try bashComplete(
            commands.map { ["trustx", $0, "--"] } + [
                ["trustx", ""], ["trustx", "check", "--anchor", "/nonexistent-dir-trustx/"],
                ["trustx", "export", "pl"],
            ])
        for (index, command) in commands.enumerated() {
            let listed = Set(
                helps[index].split(separator: "\n").compactMap { line -> String? in
                    guard line.hasPrefix("  --") else { return nil }
                    return String(line.dropFirst(2).prefix { $0 != " " && $0 != "," })
                })
            let completed = Set(replies[index])
            #expect(listed.isSubset(of: completed), "\(command): \(listed.subtracting(completed))")
            #expect(!listed.isEmpty)
        }
        #expect(Set(replies[commands.count]) == (Set(subcommands + ["help"])))
        #expect((replies[commands.count + 1]) == [])
        #expect((replies[commands.count + 2]) == ["plist"])
    }

    @Test func testZshAndFishCompletionScriptsParse() throws {
        for (shell, flag) in [("zsh", "-n"), ("fish", "-n")] {
            let path = ["/usr/bin/\(shell)", "/bin/\(shell)"].first { FileManager.default.isExecutableFile(atPath: $0) }
            guard let path else { continue }
            let script = try CLI.run(["completions", shell])
            #expect(script.status == 0)
            let dir = try scratch()
            defer { try? FileManager.default.removeItem(at: dir) }
            let file = dir.appendingPathComponent("trustx.\(shell)")
            try script.stdout.write(to: file)
            let r = try Shell.run(URL(fileURLWithPath: path), [flag, file.path])
            #expect(r.status == 0, "\(shell): \(r.err)")
            #expect(r.err == "", "\(shell)")
        }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/zsh")
            || !FileManager.default.isExecutableFile(atPath: "/usr/bin/fish")
        {
            try Test.cancel("zsh or fish is not installed")
        }
    }

    @Test func testFishCompletesThePolicyValues() throws {
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/fish") { try Test.cancel("fish is not installed") }
        let script = try CLI.run(["completions", "fish"])
        let dir = try scratch()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = dir.appendingPathComponent("trustx.fish")
        try script.stdout.write(to: file)
        let r = try Shell.run(
            URL(fileURLWithPath: "/usr/bin/fish"), ["-c", "source \(file.path); complete -C 'trustx check --policy '"],
            environment: ["HOME": dir.path, "PATH": "/usr/bin:/bin"])
        let values = r.out.split(separator: "\n").map { String($0.prefix { $0 != "\t" }) }
        #expect(values.sorted() == ["basic", "ssl", "ssl-no-host"], "\(r.out + r.err)")
    }

    @Test func testTheManPageInDocsIsCurrent() throws {
        let r = try CLI.run(["help", "--man"])
        #expect(r.status == 0)
        let shipped = try String(
            contentsOf: Self.repository.appendingPathComponent("docs/trustx.1"), encoding: .utf8)
        #expect(r.out == shipped, "docs/trustx.1 is stale: regenerate with trustx help --man > docs/trustx.1")
        // Every option of every command is in it.
        for command in ["check", "explore", "export", "pin", "lab", "ats", "lint", "completions", "diff", "explain"] {
            #expect(shipped.contains(".SS \"trustx \(command)\""), "\(command)")
        }
        #expect(shipped.contains("\\fB\\-\\-policy\\fR \\fIpolicy\\fR"))
    }

    @Test func testReadmeNamesEverySubcommandAndKeepsRunItShort() throws {
        let readme = try String(contentsOf: Self.repository.appendingPathComponent("README.md"), encoding: .utf8)
        for command in ["check", "explore", "pin", "lab", "ats", "export", "lint", "completions"] {
            #expect(readme.contains("trustx \(command)"), "\(command)")
        }
        let section = try #require(readme.components(separatedBy: "## Run it\n").dropFirst().first)
        let body = section.components(separatedBy: "\n## ").first!.split(separator: "\n").filter {
            !$0.trimmingCharacters(in: .whitespaces).isEmpty
        }
        #expect(body.count < 10, "\(body.joined(separator: "\n"))")
    }

    // MARK: Helpers

    func scratch() throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("trustx-newcomer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        return dir
    }

}
