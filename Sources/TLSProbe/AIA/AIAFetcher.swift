import TrustCore
import TrustSupport
import TrustX509

/// Fetches missing intermediates from AIA caIssuers URLs (RFC 5280 4.2.2.1), as Apple's SSL
/// policy does and OpenSSL/curl do not. Plain HTTP/1.1 only (`http://`; an issuer fetched over
/// TLS would need a trusted issuer first), bounded in size, time, redirects and count.
public struct AIAFetcher: Sendable {
    /// Largest response body accepted; issuers are a few KiB.
    public var maximumResponseBytes: Int
    /// Most fetches per chain completion.
    public var maximumFetches: Int
    /// Most redirects followed per fetch (http:// targets only).
    public var maximumRedirects: Int
    /// Which hosts may be contacted (tests restrict this to loopback); redirects are checked too.
    public var allowHost: @Sendable (String) -> Bool

    /// Creates a fetcher with the default bounds: 64 KiB, 4 fetches, 3 redirects, any host.
    public init(
        maximumResponseBytes: Int = 64 * 1024, maximumFetches: Int = 4, maximumRedirects: Int = 3,
        allowHost: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.maximumResponseBytes = maximumResponseBytes
        self.maximumFetches = maximumFetches
        self.maximumRedirects = maximumRedirects
        self.allowHost = allowHost
    }

    /// The caIssuers OID, 1.3.6.1.5.5.7.48.2.
    static let caIssuers = OID(dotted: "1.3.6.1.5.5.7.48.2")!

    /// The caIssuers URLs of `certificate`, in order.
    public static func caIssuersURLs(of certificate: Certificate) -> [String] {
        (certificate.authorityInfoAccess ?? []).compactMap { ad in
            guard ad.method == caIssuers, case .uri(let u) = ad.location else { return nil }
            return u
        }
    }

    /// Walks from the leaf (`presented[0]`) towards a root: through presented certificates while
    /// an issuer is there, fetching a missing issuer from the caIssuers URL of the certificate
    /// that lacks it, then continuing from the fetched certificate, until an issuer is among the
    /// anchors (or `issuers`, the system store), a self-issued certificate is reached, or a bound
    /// is hit. Everything fetched is returned for the evaluator's pool, to be marked
    /// `CertificateSource.aia`. All fetches together end within `timeout`.
    public func completeChain(
        presented: [Certificate], anchors: [Certificate] = [], issuers: (any IssuerSource)? = nil,
        timeout: Duration = .seconds(10)
    ) -> AIAResult {
        completeChain(
            presented: presented, anchors: anchors, issuers: issuers, deadline: EvaluationDeadline(after: timeout))
    }

    /// Completes the chain as `completeChain(presented:anchors:issuers:timeout:)` does, with
    /// every fetch ending by `deadline`: the run's, so that fetching gets what the handshake left.
    public func completeChain(
        presented: [Certificate], anchors: [Certificate] = [], issuers: (any IssuerSource)? = nil,
        deadline: EvaluationDeadline
    ) -> AIAResult {
        var result = AIAResult(fetched: [], attempts: [])
        guard var current = presented.first else { return result }
        let deadline = Deadline(deadline)
        var visited = Set<[UInt8]>()
        while visited.insert(current.sha256).inserted {
            if current.isSelfIssued { break }
            if anchors.contains(where: { $0.subject.matches(current.issuer) }) { break }
            // The presented chain first: the system store's index is the costliest source and
            // is rarely needed when the server sent its intermediates.
            let pool = presented + result.fetched
            if let next = Self.bestIssuer(of: current, in: pool) {
                current = next
                continue
            }
            if let issuers, !issuers.certificates(withSubject: current.issuer).isEmpty { break }
            let urls = Self.caIssuersURLs(of: current)
            guard let url = urls.first(where: { $0.lowercased().hasPrefix("http://") }) else {
                if let other = urls.first {
                    result.attempts.append(
                        AIAAttempt(
                            url: other, subject: current.subject.description,
                            outcome: .skipped("only http:// caIssuers URLs are fetched")))
                }
                break
            }
            guard result.attempts.filter(\.wasFetched).count < maximumFetches else {
                result.attempts.append(
                    AIAAttempt(
                        url: url, subject: current.subject.description,
                        outcome: .skipped("the limit of \(maximumFetches) fetches is reached")))
                break
            }
            var watch = Stopwatch()
            switch fetch(url, deadline: deadline) {
            case .failure(let e):
                result.attempts.append(
                    AIAAttempt(
                        url: url, subject: current.subject.description, outcome: .failed(e.message),
                        milliseconds: watch.lap()))
                return result
            case .success(let certs):
                let ms = watch.lap()
                let fresh = certs.filter { c in !pool.contains(c) }
                guard let issuer = Self.bestIssuer(of: current, in: fresh) else {
                    result.attempts.append(
                        AIAAttempt(
                            url: url, subject: current.subject.description,
                            outcome: .failed(
                                "the response holds no certificate named \(InputExcerpt.quote(current.issuer.description))"
                            ),
                            milliseconds: ms))
                    return result
                }
                result.attempts.append(
                    AIAAttempt(
                        url: url, subject: current.subject.description,
                        outcome: .fetched(fresh.count), milliseconds: ms))
                result.fetched += fresh
                current = issuer
            }
        }
        return result
    }

    /// The certificate in `pool` named as `child`'s issuer, preferring one whose subject key
    /// identifier matches the child's authority key identifier.
    static func bestIssuer(of child: Certificate, in pool: [Certificate]) -> Certificate? {
        let named = pool.filter { $0 != child && $0.subject.matches(child.issuer) }
        if let aki = child.authorityKeyIdentifier?.keyIdentifier,
            let exact = named.first(where: { $0.subjectKeyIdentifier == aki })
        {
            return exact
        }
        return named.first
    }

    /// Fetches one URL and decodes its certificates (DER, PEM or PKCS#7).
    public func fetch(_ url: String, timeout: Duration = .seconds(10)) -> Result<[Certificate], AIAError> {
        fetch(url, deadline: Deadline(after: timeout))
    }

    func fetch(_ url: String, deadline: Deadline) -> Result<[Certificate], AIAError> {
        var location = url
        for _ in 0...maximumRedirects {
            let response: HTTPGet.Response
            do {
                response = try HTTPGet.get(
                    location, maximumBody: maximumResponseBytes, allowHost: allowHost, deadline: deadline)
            } catch {
                return .failure(error)
            }
            if [301, 302, 303, 307, 308].contains(response.status), let next = response.location {
                location = HTTPGet.resolve(next, against: location)
                continue
            }
            guard response.status == 200 else {
                return .failure(AIAError("\(HTTPGet.quoted(location)) answered HTTP \(response.status)"))
            }
            do {
                return .success(try CertificateLoader.decode(response.body, name: location))
            } catch {
                return .failure(
                    AIAError(
                        "\(HTTPGet.quoted(location)) did not return a certificate: \(InputExcerpt.quote("\(error)"))"))
            }
        }
        return .failure(AIAError("\(HTTPGet.quoted(url)): more than \(maximumRedirects) redirects"))
    }
}
