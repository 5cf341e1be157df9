import TrustCore
let args = Array(CommandLine.arguments.dropFirst())
let chain = try CertificateLoader.load(path: args[0])
let anchors = args.count > 1 ? try CertificateLoader.load(path: args[1]) : []
let host: String? = args.count > 2 ? args[2] : nil
let settings = TrustSettings(anchors: anchors, policy: .ssl(host: host), time: Timestamp(rfc3339: "2027-01-01T00:00:00Z")!)
let e = Evaluator().evaluate(chain: chain, settings: settings)!
for s in e.steps { print(s.id.rawValue, s.certificate.map(String.init) ?? "-", s.status.identifier, s.title, s.osstatus.map { String($0) } ?? "") }
print(e.verdict.summary)
