// libFuzzer entry for the DER, PEM and container decoders (docs/fuzzing.md).
// Normal builds compile a stub main; fuzz builds pass -DFUZZING and libFuzzer supplies main.
import TrustCore

#if FUZZING
    @_cdecl("LLVMFuzzerTestOneInput")
    public func fuzzOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
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
        _ = try? CertificateLoader.decode(bytes, password: "fuzz")
        if let text = String(validating: bytes, as: UTF8.self) {
            _ = parseIPAddress(text)
            _ = Timestamp(rfc3339: text)
            _ = HostnameMatcher.match(
                host: text, dnsNames: [text, "*.example.com"], ipAddresses: [],
                commonNames: [], rules: .apple, publicSuffixes: nil)
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
