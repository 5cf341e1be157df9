import TrustCore
import TrustSupport
import TrustX509

/// How a chain was served, judged against the path the engine built from it (D440): what each
/// certificate sent cost, what a client that is not Apple's makes of the order, and what only an
/// AIA fetch supplied. Apple's evaluation ignores all of it (order, extras and duplicates do not
/// change a path); other clients do not, which is why it is reported beside the verdict.
public enum ServedChainAnalysis {
    /// The most certificates of a sent chain looked at: the probe refuses longer chains, and a
    /// file of more is judged by its first ones.
    public static let maximumCertificates = 64

    /// What a server can send before the client's first acknowledgement: TCP's initial window of
    /// 10 segments (RFC 6928), each of 1,460 bytes (Ethernet's 1,500-byte MTU less the IPv4 and
    /// TCP headers) (D441).
    public static let initialWindowBytes = 10 * 1_460

    /// The findings about `e`'s chain as sent, in the order of `ServedFinding.Kind.allCases`,
    /// each kind's by the position of its first certificate; empty when it was served cleanly.
    public static func findings(_ e: Evaluation) -> [ServedFinding] {
        let sent = Array(e.presented.prefix(maximumCertificates))
        guard !sent.isEmpty else { return [] }
        let path = e.path.certificates
        var pathIndex: [Certificate: Int] = [:]
        for (i, c) in path.enumerated() where pathIndex[c] == nil { pathIndex[c] = i }
        // A self-signed last certificate is a root, whether this client trusts it or not.
        let rootIndex = path.count > 1 && path[path.count - 1].isSelfIssued ? path.count - 1 : nil
        var byKind: [ServedFinding.Kind: [ServedFinding]] = [:]
        func add(_ kind: ServedFinding.Kind, _ certificates: [ServedFinding.Concerned], _ why: String) {
            byKind[kind, default: []].append(ServedFinding(kind: kind, certificates: certificates, explanation: why))
        }
        var firstSent: [Certificate: Int] = [:]
        // The path's certificates in the order they were sent: (index sent, index in the path).
        var ordered: [(sent: Int, path: Int)] = []
        for (i, c) in sent.enumerated() {
            if let first = firstSent[c] {
                add(
                    .duplicate, [concerned(i, pathIndex[c], c)],
                    "the same certificate as #\(first): its \(c.der.count) bytes are sent again for nothing, and a client that checks the list strictly (each certificate certifies the one before it, RFC 5246 7.4.2) may refuse it"
                )
                continue
            }
            firstSent[c] = i
            if let p = pathIndex[c] {
                ordered.append((i, p))
                if i > 0 && p == rootIndex {
                    add(
                        .rootSent, [concerned(i, p, c)],
                        "the path's root: a client trusts its own copy or none, never the server's (RFC 8446 4.4.2 lets a server leave it out), so its \(c.der.count) bytes are sent on every handshake for nothing; no client fails on it"
                    )
                }
            } else if c.notAfter < e.settings.time {
                add(
                    .expiredExtra, [concerned(i, nil, c)],
                    "no path uses it and it expired on \(c.notAfter.rfc3339): a client that builds through the first issuer it finds by name without trying another (OpenSSL 1.0.2, GnuTLS before 3.6.14) can reach it and fail with an expired certificate"
                )
            } else {
                add(.unused, [concerned(i, nil, c)], unusedExplanation(c, path: path))
            }
        }
        let inPathOrder = ordered.map(\.path).sorted()
        let misplaced = ordered.enumerated().filter { $0.element.path != inPathOrder[$0.offset] }.map(\.element)
        if !misplaced.isEmpty {
            let wanted = ordered.sorted { $0.path < $1.path }.map { "#\($0.sent)" }.joined(separator: ", ")
            add(
                .wrongOrder, misplaced.map { concerned($0.sent, $0.path, sent[$0.sent]) },
                "the path needs them sent as \(wanted), each right after the certificate it signs, which TLS 1.2 requires (RFC 5246 7.4.2): Apple, browsers, OpenSSL and Go reorder, but a client that looks for an issuer only after its child, as mbed TLS does, fails"
            )
        }
        for (p, c) in path.enumerated() where p < e.path.sources.count && e.path.sources[p] == .aia {
            add(
                .aiaFilled, [concerned(nil, p, c)],
                "not sent: fetched from the AIA caIssuers URL of [\(p - 1)]; Apple's SSL policy fetches it, but Android, curl, Go and Java do not fetch AIA and fail with an unknown issuer"
            )
        }
        let bytes = certificateMessageBytes(sent)
        if bytes > initialWindowBytes {
            add(
                .oversized, sent.enumerated().map { concerned($0.offset, pathIndex[$0.element], $0.element) },
                "the certificates take \(bytes) bytes of the handshake, more than the \(initialWindowBytes) a server sends before the client's first acknowledgement (TCP's initial window of 10 segments, RFC 6928): every new connection waits one more round trip; no client fails"
            )
        }
        return ServedFinding.Kind.allCases.flatMap { byKind[$0] ?? [] }
    }

    /// The bytes of TLS 1.2's Certificate message for `chain`: the handshake header (4), the
    /// list's length (3) and each certificate with its length (3 + DER) (RFC 5246 7.4.2).
    /// TLS 1.3 adds 2 bytes per certificate and 1 in all (RFC 8446 4.4.2): this is the least.
    public static func certificateMessageBytes(_ chain: [Certificate]) -> Int {
        chain.reduce(4 + 3) { $0 + 3 + $1.der.count }
    }

    static func concerned(_ sent: Int?, _ path: Int?, _ c: Certificate) -> ServedFinding.Concerned {
        ServedFinding.Concerned(presentedIndex: sent, pathIndex: path, certificate: c)
    }

    /// Why an unused certificate matters: its bytes, and when it bears the name of an issuer the
    /// path uses (an alternative issuer, a cross-sign), the wrong turn it offers.
    static func unusedExplanation(_ c: Certificate, path: [Certificate]) -> String {
        let bytes = "its \(c.der.count) bytes are sent on every handshake for nothing"
        guard let child = path.firstIndex(where: { $0.issuer.matches(c.subject) && !$0.isSelfIssued }) else {
            return "no path uses it: \(bytes)"
        }
        return
            "no path uses it: \(bytes), and it bears the name of [\(child)]'s issuer, so a client that takes the first issuer it finds by name without trying another can build through it and fail"
    }
}
