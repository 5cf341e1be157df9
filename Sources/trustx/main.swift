import TrustCore
var ok = 0
for path in CommandLine.arguments.dropFirst() {
    do {
        let certs = try CertificateLoader.load(path: path)
        for c in certs { ok += 1; if ok < 3 { print(c.subject, c.publicKey.type.label, c.publicKey.bits, c.notAfter, c.spkiPin, c.extensions.map{$0.oid.name}) } }
    } catch { print("ERR", error) }
}
print(ok)
