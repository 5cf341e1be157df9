import TrustCore
import TrustSupport
import TrustX509

/// Fetches revocation information over the network as SecPolicyCreateRevocation with
/// kSecRevocationUseAnyAvailableMethod does: for each certificate of a path below the anchor, an
/// OCSP response from the AIA OCSP URL (RFC 6960 A.1 GET), else a CRL from the
/// cRLDistributionPoints. Plain HTTP only, bounded in count, size and time; off unless asked for.
/// What comes back is only fetched here: the evaluator verifies it.
public struct RevocationFetcher: Sendable {
    /// Most fetches for one path.
    public var maximumFetches: Int
    /// Largest OCSP response accepted.
    public var maximumOCSPBytes: Int
    /// Largest CRL accepted.
    public var maximumCRLBytes: Int
    /// Which hosts may be contacted (tests restrict this to loopback).
    public var allowHost: @Sendable (String) -> Bool

    /// Creates a fetcher: 8 fetches, 64 KiB responses, 4 MiB CRLs, any host.
    public init(
        maximumFetches: Int = 8, maximumOCSPBytes: Int = 64 * 1024, maximumCRLBytes: Int = 4 * 1024 * 1024,
        allowHost: @escaping @Sendable (String) -> Bool = { _ in true }
    ) {
        self.maximumFetches = maximumFetches
        self.maximumOCSPBytes = maximumOCSPBytes
        self.maximumCRLBytes = maximumCRLBytes
        self.allowHost = allowHost
    }

    /// The OCSP access method, 1.3.6.1.5.5.7.48.1.
    static let ocsp = OID(dotted: "1.3.6.1.5.5.7.48.1")!

    /// What was fetched, and each attempt for the report.
    public struct Result: Sendable {
        /// OCSP responses (DER), for `TrustSettings.fetchedOCSPResponses`.
        public var ocspResponses: [[UInt8]] = []
        /// CRLs, for `TrustSettings.revocationLists`.
        public var revocationLists: [RevocationList] = []
        /// One line per URL tried: the URL and what happened.
        public var attempts: [(url: String, outcome: String)] = []

        /// Creates a result.
        public init(
            ocspResponses: [[UInt8]] = [], revocationLists: [RevocationList] = [],
            attempts: [(url: String, outcome: String)] = []
        ) {
            self.ocspResponses = ocspResponses
            self.revocationLists = revocationLists
            self.attempts = attempts
        }
    }

    /// Fetches for `path` (leaf first; each certificate's issuer follows it). All fetches
    /// together end within `timeout`.
    public func fetch(path: [Certificate], timeout: Duration = .seconds(10)) -> Result {
        fetch(path: path, deadline: EvaluationDeadline(after: timeout))
    }

    /// Fetches for `path` (leaf first; each certificate's issuer follows it); all fetches end by
    /// `deadline`, the run's, so that fetching gets what is left of the run's time, not a fresh
    /// allowance. Fetches not started before it are reported as not tried.
    public func fetch(path: [Certificate], deadline: EvaluationDeadline) -> Result {
        var result = Result()
        let deadline = Deadline(deadline)
        var fetches = 0
        for i in 0..<max(0, path.count - 1) {
            let cert = path[i]
            let issuer = path[i + 1]
            var answered = false
            let ocspURLs = (cert.authorityInfoAccess ?? []).compactMap { ad -> String? in
                guard ad.method == Self.ocsp, case .uri(let u) = ad.location else { return nil }
                return u
            }
            for base in ocspURLs where !answered {
                guard fetches < maximumFetches else { break }
                guard !deadline.isExpired else {
                    result.attempts.append((HTTPGet.quoted(base), "not tried: the deadline had passed"))
                    break
                }
                fetches += 1
                let url = OCSPRequest.getURL(base: base, request: OCSPRequest.der(certificate: cert, issuer: issuer))
                switch get(url, maximumBody: maximumOCSPBytes, deadline: deadline) {
                case .success(let body):
                    result.ocspResponses.append(body)
                    result.attempts.append((HTTPGet.quoted(base), "OCSP response, \(body.count) bytes"))
                    answered = true
                case .failure(let why): result.attempts.append((HTTPGet.quoted(base), "failed: \(why)"))
                }
            }
            var crlURLs: [String] = []
            for ext in cert.extensions {
                guard case .crlDistributionPoints(let names) = ext.decoded else { continue }
                crlURLs = names.compactMap { if case .uri(let u) = $0 { return u } else { return nil } }
                break
            }
            for url in crlURLs where !answered {
                guard fetches < maximumFetches else { break }
                guard !deadline.isExpired else {
                    result.attempts.append((HTTPGet.quoted(url), "not tried: the deadline had passed"))
                    break
                }
                fetches += 1
                switch get(url, maximumBody: maximumCRLBytes, deadline: deadline) {
                case .success(let body):
                    do {
                        result.revocationLists += try RevocationList.decodeAll(body)
                        result.attempts.append((HTTPGet.quoted(url), "CRL, \(body.count) bytes"))
                        answered = true
                    } catch {
                        result.attempts.append(
                            (HTTPGet.quoted(url), "failed: not a CRL (\(InputExcerpt.quote(error.reason)))"))
                    }
                case .failure(let why): result.attempts.append((HTTPGet.quoted(url), "failed: \(why)"))
                }
            }
        }
        return result
    }

    private func get(_ url: String, maximumBody: Int, deadline: Deadline) -> Swift.Result<[UInt8], AIAError> {
        do {
            let response = try HTTPGet.get(url, maximumBody: maximumBody, allowHost: allowHost, deadline: deadline)
            guard response.status == 200 else { return .failure(AIAError("HTTP \(response.status)")) }
            return .success(response.body)
        } catch {
            return .failure(error)
        }
    }
}
