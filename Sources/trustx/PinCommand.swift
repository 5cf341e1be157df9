import TrustCore
import TrustSupport
import TrustX509

/// `trustx pin`: the SPKI SHA-256 pin of every certificate in some files.
enum PinCommand {
    static let name = "pin"

    static let spec = CommandSpec(
        commandPath: "trustx pin",
        abstract: "Print the SPKI SHA-256 pin of every certificate in the files.",
        arguments: [
            ArgumentSpec(
                valueName: "file", help: "A PEM, DER, PKCS#7 or PKCS#12 file of certificates.", isRepeating: true)
        ],
        options: [
            OptionSpec(
                name: "password", valueName: "password", arity: .one,
                help: "The password of the PKCS#12 files given.")
        ]
    )

    static func run(_ args: [String]) -> ExitStatus {
        let parsed: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let p): parsed = p
        case .failure(let exit): return exit.status
        }
        // Every file is read before anything is printed, so a bad file gives no partial output.
        var files: [(String, [Certificate])] = []
        for path in parsed.positionals {
            switch Trustx.load(path, password: parsed.value("password"), command: spec) {
            case .success(let certs): files.append((path, certs))
            case .failure(let f): return f.report()
            }
        }
        Output.out(render(files))
        return .success
    }

    /// One block per certificate: where it is, its subject, the pin in both spellings.
    static func render(_ files: [(String, [Certificate])]) -> String {
        var blocks: [String] = []
        for (path, certs) in files {
            for (i, cert) in certs.enumerated() {
                let subject = cert.subject.isEmpty ? "(empty subject)" : cert.subject.description
                blocks.append(
                    """
                    \(TerminalSanitizer.sanitize(path)) #\(i): \(TerminalSanitizer.sanitize(subject))
                      spki-sha256  \(cert.spkiPin)
                      pin          sha256//\(cert.spkiPin)

                    """)
            }
        }
        return blocks.joined(separator: "\n")
    }
}
