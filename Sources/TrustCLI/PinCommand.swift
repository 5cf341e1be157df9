import CommandLineSpec
import TrustCore
import TrustSupport
import TrustX509

/// `trustx pin`: the SPKI SHA-256 pin of every certificate, public key, private key and
/// certificate request in some files.
enum PinCommand {
    static let name = "pin"

    static let spec = CommandSpec(
        commandPath: "trustx pin",
        abstract: "Print the SPKI SHA-256 pin of every certificate, key and certificate request in the files.",
        discussion:
            "A public key, a private key or a certificate request (CSR) gives the pin the certificate issued for its key will have: a backup pin can ship before that certificate exists. Files are read as trustx check reads --chain files: a certificate or key that cannot be read among readable ones is named on standard error and left out, the others are printed, and the exit status is then 65.",
        arguments: [
            ArgumentSpec(
                valueName: "file",
                help:
                    "A PEM, DER, PKCS#7 or PKCS#12 file of certificates, or a PEM or DER public key, private key (PKCS#8, RSA, EC) or certificate request; - reads standard input.",
                isRepeating: true)
        ],
        options: [
            OptionSpec(
                name: "password", valueName: "password", arity: .one,
                help: "The password of the PKCS#12 files or encrypted PKCS#8 private keys given.")
        ]
    )

    /// One pin to print: where it came from, what holds the key, the pin.
    struct Entry {
        var file: String
        var title: String
        var pin: String
    }

    static func run(_ args: [String]) -> ExitStatus {
        let parsed: ParsedArguments
        switch Trustx.parse(args, spec) {
        case .success(let p): parsed = p
        case .failure(let exit): return exit.status
        }
        if parsed.positionals.filter({ $0 == "-" }).count > 1 {
            return Trustx.usageError(
                UsageError(message: "- reads standard input, which can be read once; give - once"), spec)
        }
        // Every file is read before anything is printed, so a file that cannot be opened or
        // decoded at all gives no partial output.
        var entries: [[Entry]] = []
        var unreadable: [DecodingError] = []
        for path in parsed.positionals {
            switch read(path, password: parsed.value("password")) {
            case .success(let (found, bad)):
                entries.append(found)
                unreadable += bad
            case .failure(let f): return f.report()
            }
        }
        Output.out(render(entries))
        // As check --chain: what cannot be read among readable blocks is named and left out.
        for why in unreadable {
            Output.err("Error: \(TerminalSanitizer.sanitize(why.description)) (left out)\n")
        }
        return unreadable.isEmpty ? .success : .dataError
    }

    /// The pins of one file, and why each block that could not be read was not; a failure when
    /// the file cannot be read or nothing in it can.
    static func read(_ path: String, password: String?) -> Result<([Entry], [DecodingError]), Trustx.Failure> {
        let name = path == "-" ? Trustx.standardInputName : path
        let bytes: [UInt8]
        do {
            bytes = try Trustx.readInput(path)
        } catch {
            return .failure(Trustx.Failure(message: error.description, status: .noInput))
        }
        func certificateEntry(_ c: Certificate) -> Entry {
            Entry(file: name, title: c.subject.isEmpty ? "(empty subject)" : c.subject.description, pin: c.spkiPin)
        }
        func keyEntry(_ k: KeyFileEntry) -> Entry {
            Entry(file: name, title: "\(k.source) (\(k.keyDescription))", pin: k.spkiPin)
        }
        guard PEM.looksLikePEM(bytes) else {
            // DER: certificates (or PKCS#7, PKCS#12) first, else one key or request.
            do {
                return .success(
                    (try CertificateLoader.decode(bytes, password: password, name: name).map(certificateEntry), []))
            } catch {
                if let key = KeyFile.key(der: bytes) { return .success(([keyEntry(key)], [])) }
                return .failure(failure(error, name: name))
            }
        }
        let blocks: [PEMBlock]
        do {
            blocks = try PEM.blocks(in: bytes)
        } catch {
            return .failure(Trustx.Failure(message: error.inFile(name).description, status: .dataError))
        }
        var entries: [Entry] = []
        var unreadable: [DecodingError] = []
        let keyBlocks = blocks.filter { KeyFile.takes(label: $0.label) }
        if keyBlocks.count < blocks.count || keyBlocks.isEmpty {
            do {
                let loaded = try CertificateLoader.loadChain(bytes: bytes, name: name, password: password)
                entries += loaded.certificates.map(certificateEntry)
                unreadable += loaded.unreadable
            } catch {
                if keyBlocks.isEmpty { return .failure(failure(error, name: name)) }
                // Beside keys, a certificate that cannot be read is left out and named; other
                // blocks (a CRL, parameters) are skipped, as the loader skips them.
                let certificates = blocks.contains {
                    CertificateLoader.certificateLabels.contains($0.label) || $0.label == "PKCS7"
                }
                if certificates, case .malformed(let e) = error { unreadable.append(e) }
            }
        }
        for block in keyBlocks {
            do {
                entries.append(keyEntry(try KeyFile.key(block, password: password)))
            } catch {
                unreadable.append(
                    DecodingError(
                        offset: error.offset, reason: "in PEM block at byte \(block.offset): \(error.reason)",
                        file: name))
            }
        }
        if entries.isEmpty, let first = unreadable.first {
            return .failure(Trustx.Failure(message: first.description, status: .dataError))
        }
        return .success((entries, unreadable))
    }

    /// A load error as its exit status: 65 for what does not decode, 64 for a missing password.
    static func failure(_ error: any Error, name: String) -> Trustx.Failure {
        switch error {
        case let e as LoadError:
            if case .password = e {
                return Trustx.Failure(message: e.description, status: .usage, detail: .usage(spec))
            }
            if case .unreadable = e { return Trustx.Failure(message: e.description, status: .noInput) }
            return Trustx.Failure(message: e.description, status: .dataError)
        case let e as DecodingError:
            return Trustx.Failure(message: (e.file == nil ? e.inFile(name) : e).description, status: .dataError)
        default:
            return Trustx.Failure(message: "\(name): \(error)", status: .dataError)
        }
    }

    /// One block per certificate or key: where it is, what it is, the pin in both spellings.
    static func render(_ files: [[Entry]]) -> String {
        var blocks: [String] = []
        for entries in files {
            for (i, e) in entries.enumerated() {
                blocks.append(
                    """
                    \(TerminalSanitizer.sanitize(e.file)) #\(i): \(TerminalSanitizer.sanitize(e.title))
                      spki-sha256  \(e.pin)
                      pin          sha256//\(e.pin)

                    """)
            }
        }
        return blocks.joined(separator: "\n")
    }
}
