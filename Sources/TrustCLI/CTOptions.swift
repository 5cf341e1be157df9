import CTModel
import CommandLineSpec
import ExplorerState
import TrustCore
import TrustSupport
import TrustX509

/// `--ct-logs`, `--sct` and `--ocsp-response`: the Certificate Transparency logs to trust instead
/// of Apple's, and, for chains from files, what a connection would have delivered beside them.
extension CheckCommand {
    /// `--ct-logs`, shared with `explore` and `export`.
    static let ctLogsOption = OptionSpec(
        name: "ct-logs", valueName: "file", arity: .one,
        help:
            "Check SCTs against the logs in this file, as SecTrustSetTrustedLogs: Apple's log_list.json format, or a property-list array of dictionaries with key (DER SubjectPublicKeyInfo) and operator.",
        defaultText: "Apple's list, compiled in")

    /// The CT inputs as asked for, before any file is read.
    struct CTRequest {
        var logsFile: String?
        var sctFiles: [String] = []
        var ocspResponseFile: String?
    }

    static func validateCT(_ p: ParsedArguments) throws(UsageError) -> CTRequest {
        if !p.positionals.isEmpty, let used = ["sct", "ocsp-response"].first(where: { p.has($0) }) {
            throw UsageError(message: "--\(used) applies to --chain files; a server delivers its own")
        }
        return CTRequest(
            logsFile: p.value("ct-logs"), sctFiles: p.all("sct"), ocspResponseFile: p.value("ocsp-response"))
    }

    /// Reads the CT files into `settings`: 66 when one cannot be read, 65 when the log list is not
    /// one. SCT and OCSP files are taken as they are: what trustd cannot read it ignores, and the
    /// report says so.
    static func loadCT(_ r: CTRequest, into settings: inout TrustSettings) -> Result<Void, Trustx.Failure> {
        func read(_ path: String) -> Result<[UInt8], Trustx.Failure> {
            do {
                return .success(try Trustx.inputAllowance.read(path))
            } catch {
                return .failure(Trustx.Failure(message: error.description, status: .noInput))
            }
        }
        if let path = r.logsFile {
            switch read(path) {
            case .failure(let f): return .failure(f)
            case .success(let bytes):
                do {
                    settings.ctLogs = try CTLogListReader.read(bytes, source: path)
                } catch {
                    return .failure(Trustx.Failure(message: "\(path): \(error.description)", status: .dataError))
                }
            }
        }
        for path in r.sctFiles {
            switch read(path) {
            case .failure(let f): return .failure(f)
            case .success(let bytes): settings.presentedSCTs += scts(in: bytes)
            }
        }
        if let path = r.ocspResponseFile {
            switch read(path) {
            case .failure(let f): return .failure(f)
            case .success(let bytes): settings.stapledOCSPResponse = bytes
            }
        }
        return .success(())
    }

    /// A --sct file's SCTs: a list whose entries are all SCTs, else the file as one SCT (which
    /// the report shows as unreadable when it is not one either).
    static func scts(in bytes: [UInt8]) -> [[UInt8]] {
        if let list = SignedCertificateTimestampList.split(bytes),
            list.allSatisfy({ (try? SignedCertificateTimestamp.parse($0).get()) != nil })
        {
            return list
        }
        return [bytes]
    }
}

extension ExploreCommand {
    /// The start-up state with `--ct-logs` read into it (SCT and OCSP files are check's alone).
    static func withCTLogs(_ start: (AppState, [Effect]), _ r: CheckCommand.Request)
        -> Result<(AppState, [Effect]), Trustx.Failure>
    {
        var settings = TrustSettings(time: start.0.now)
        if case .failure(let f) = CheckCommand.loadCT(CheckCommand.CTRequest(logsFile: r.ct.logsFile), into: &settings)
        {
            return .failure(f)
        }
        var state = start.0
        state.ctLogs = settings.ctLogs
        return .success((state, start.1))
    }
}
