import TrustReport
import TrustSupport
import TrustX509

/// `trustx store diff`: Apple's roots against this machine's, both ways.
struct StoreDiff {
    /// Apple's roots this machine does not have: a chain to one is trusted on an Apple device
    /// and not here.
    var onlyApple: [StoreCommand.Entry]
    /// This machine's roots Apple does not ship, each with the removed/ folder listing it when
    /// Apple removed it.
    var onlyMachine: [(certificate: Certificate, removedFolder: String?)]

    init(apple: [StoreCommand.Entry], machineRoots: [Certificate]) {
        onlyApple = apple.filter { !$0.onMachine }
        let shipped = Set(apple.map(\.sha256))
        onlyMachine = machineRoots.filter { !shipped.contains(hexString($0.sha256).uppercased()) }.map {
            ($0, AppleRootStore.shared.removedFolder(ofSHA256: $0.sha256))
        }
    }

    func text(machine: SystemTrustStore) -> String {
        var out = "Apple's root store (\(AppleRootStore.shared.tag)) against this machine's"
        out += " (\(TerminalSanitizer.sanitize(machine.location)))\n\n"
        out += "Only Apple ships (\(onlyApple.count)): trusted on an Apple device, not here\n"
        for e in onlyApple {
            out += "  \(e.sha256.prefix(16).lowercased())  \(TerminalSanitizer.sanitize(e.certificate.displayName))\n"
        }
        let removed = onlyMachine.filter { $0.removedFolder != nil }.count
        out += "\nOnly this machine trusts (\(onlyMachine.count), \(removed) of them removed by Apple): trusted here,"
        out += " not on an Apple device\n"
        for (cert, folder) in onlyMachine {
            let mark = folder == nil ? "       " : "REMOVED"
            out += "  \(hexString(cert.sha256).prefix(16))  \(mark)  \(TerminalSanitizer.sanitize(cert.displayName))\n"
        }
        return out
    }

    func json(machine: SystemTrustStore) -> String {
        JSONWriter.serialize(
            .object([
                ("store", .string("apple")),
                ("version", .string(AppleRootStore.shared.tag)),
                ("machineStore", .string(machine.location)),
                ("onlyApple", .array(onlyApple.map(StoreListing.root))),
                (
                    "onlyMachine",
                    .array(
                        onlyMachine.map {
                            .object([
                                ("name", .string($0.certificate.displayName)),
                                ("subject", .string($0.certificate.subject.description)),
                                ("sha256", .string(hexString($0.certificate.sha256))),
                                ("removedByApple", .bool($0.removedFolder != nil)),
                                ("removedFolder", .string($0.removedFolder)),
                            ])
                        })
                ),
            ])) + "\n"
    }
}
