// libFuzzer entry for the DER, PEM, container and property-list decoders, the evaluator, and the
// parsers of what servers send: HTTP replies of AIA/OCSP/CRL fetches, CRLs, OCSP responses, SCT
// lists, STARTTLS dialogues, proxy answers and handshake messages (docs/fuzzing.md).
// Normal builds compile a stub main; fuzz builds pass -DFUZZING and libFuzzer supplies main.
import ATSModel
import AppleHello
import PathRules
import TLSProbe
import TrustCore
import TrustSupport
import TrustX509

#if canImport(Glibc)
    import Glibc
#endif

#if FUZZING
    /// The most one input may take: slower inputs trap, so libFuzzer keeps them as findings
    /// (TRUSTX_FUZZ_INPUT_LIMIT_MS, default 1000; libFuzzer's own -timeout stays the backstop for
    /// a hang inside C code, which this check cannot interrupt).
    let inputLimit: Duration = {
        if let text = getenv("TRUSTX_FUZZ_INPUT_LIMIT_MS").map({ String(cString: $0) }), let ms = Int(text), ms > 0 {
            return .milliseconds(ms)
        }
        return .seconds(1)
    }()

    /// An evaluation time inside every certificate the builder and the lab make.
    let fuzzTime = Timestamp(year: 2025, month: 6, day: 1)!

    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
        let started = ContinuousClock.now
        let bytes = Array(UnsafeBufferPointer(start: data, count: size))
        // Each decoder must either succeed or throw; a trap is a finding.
        if let cert = try? Certificate(der: bytes) {
            _ = cert.subject.description
            _ = cert.issuer.description
            _ = cert.extensions.map { $0.decoded }
            _ = cert.subjectAltNames?.map(\.valueText)
            _ = SignatureVerifier.verify(cert, signedBy: cert.publicKey)
        }
        _ = try? PEM.blocks(in: bytes)
        if let chain = try? CertificateLoader.decode(bytes, password: "fuzz") {
            // The certificates as a server's chain, with no deadline: the evaluation's count
            // budgets alone must bound it, under both profiles.
            for profile in RuleProfile.allCases {
                let settings = TrustSettings(
                    anchors: chain.count > 1 ? [chain[chain.count - 1]] : [], policy: .ssl(host: "example.com"),
                    time: fuzzTime, profile: profile)
                _ = Evaluator().evaluate(chain: chain, settings: settings)
            }
        }
        // An Info.plist (XML or binary): the reader's bounds, the decoding and the host policy.
        if let ats = try? ATSConfiguration.decode(infoPlist: bytes) {
            for platform in ATSPlatform.allCases {
                let settings = ATSSettings(configuration: ats, platform: platform)
                for host in ["example.com", "www.example.com", "192.0.2.1", "::1", "printer.local"] {
                    _ = settings.policy(forHost: host)
                }
            }
        }
        // What a responder or server sends. The HTTP reader gets the input whole and one byte at a
        // time, so that every read boundary is a place a length or line can be cut.
        _ = PeerInput.httpResponse(bytes)
        _ = PeerInput.httpResponse(bytes, maximumBody: 4 * 1024 * 1024, piece: 1)
        if let crls = try? RevocationList.decodeAll(bytes) {
            _ = crls.map { ($0.issuer.description, $0.revoked.count) }
        }
        if let response = try? OCSPResponse(der: bytes), let signer = response.certificates.first {
            _ = response.signer(issuer: signer)
            _ = response.response(for: signer, issuer: signer)
        }
        _ = PeerInput.stapledOCSP(bytes)
        _ = PeerInput.sctList(bytes)
        for proto in StartTLSProtocol.allCases { _ = PeerInput.startTLS(proto, replies: bytes) }
        _ = PeerInput.proxyReply(bytes)
        _ = PeerInput.handshakeMessages(bytes)
        // A server's answer to the Apple hello, and a client's first record as a front reads it.
        _ = ServerAnswerReader.answer(in: bytes)
        _ = ClientHelloSummary.read(bytes)
        if let text = String(validating: bytes, as: UTF8.self) {
            _ = parseIPAddress(text)
            _ = Timestamp(rfc3339: text)
            _ = HostnameMatcher.match(
                host: text, dnsNames: [text, "*.example.com"], ipAddresses: [],
                commonNames: [], rules: .apple, publicSuffixes: nil)
        }
        let elapsed = ContinuousClock.now - started
        if elapsed > inputLimit {
            fatalError("slow input: \(elapsed) for \(size) bytes, over the per-input limit of \(inputLimit)")
        }
        return 0
    }
#else
    @main
    struct FuzzEntry {
        static func main() {
            print("trustx-fuzz is a libFuzzer target; build it as docs/fuzzing.md shows.")
        }
    }
#endif
