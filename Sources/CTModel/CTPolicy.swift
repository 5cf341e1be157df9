import TrustSupport
import TrustX509

/// trustd's Certificate Transparency policy (Security, trust/trustd/CertificateTransparency.m):
/// which SCTs a path has, which of them verify against the trusted logs, and whether they make
/// the path CT-qualified. Run for every path, whatever the policy and anchor, as SecPVCPathChecks
/// runs SecPolicyCheckCT; whether a failure matters is `CertificateTransparencyCheck`'s question.
/// The evaluation lends its budget and signature cache as `SignatureWork` (D342).
package enum CTPolicy {
    /// 2021-04-21T00:00:00Z: leaves issued from then on follow the second table.
    static let april2021 = Timestamp(year: 2021, month: 4, day: 21)!

    /// The path's CT assessment at `time`: the SCTs embedded in the leaf, those the server
    /// delivered in the TLS extension and in its stapled OCSP response, against `ctLogs` (Apple's
    /// list when nil).
    package static func assess(
        certificates: [Certificate], ctLogs: CTLogList?, presentedSCTs: [[UInt8]], stapledOCSPResponse: [UInt8]?,
        time: Timestamp, work: inout some SignatureWork
    ) -> CTAssessment {
        var a = assessByCode(
            certificates: certificates, ctLogs: ctLogs, presentedSCTs: presentedSCTs,
            stapledOCSPResponse: stapledOCSPResponse, time: time, work: &work)
        // A qualified path has verified SCTs, so the list is decoded already.
        if a.qualified { a.publishedPolicyAdvice = CTPublishedPolicy.advice(a, logs: ctLogs ?? .apple) }
        return a
    }

    /// The assessment as trustd's code makes it (find_validating_logs, verify_tls_ct_policy).
    static func assessByCode(
        certificates: [Certificate], ctLogs: CTLogList?, presentedSCTs: [[UInt8]], stapledOCSPResponse: [UInt8]?,
        time: Timestamp, work: inout some SignatureWork
    ) -> CTAssessment {
        let leaf = certificates[0]
        let issuer = certificates.count >= 2 ? certificates[1] : nil
        var a = CTAssessment()
        a.logListSource = ctLogs?.source ?? CTLogList.appleSource
        a.era = leaf.notBefore < april2021 ? .beforeApril2021 : .fromApril2021
        a.requiredEmbedded = requiredEmbedded(leaf, era: a.era)

        // find_validating_logs: embedded SCTs over the precertificate (which needs the issuer),
        // delivered ones over the certificate.
        var batches: [(SCTEvidence.Source, [[UInt8]])] = [(.embedded, embeddedSCTs(leaf))]
        batches.append(
            (.tlsExtension, Array(presentedSCTs.prefix(SignedCertificateTimestampList.maximumEntries))))
        if let issuer { batches.append((.ocspResponse, ocspSCTs(stapledOCSPResponse, leaf, issuer))) }
        // Most paths have no SCTs at all: the entries are built only for SCTs that need them.
        guard batches.contains(where: { !$0.1.isEmpty }) else { return a }
        let logs = ctLogs ?? .apple
        // The entries are built on a cache miss only: a warm re-evaluation finds each SCT's result
        // by a digest of the SCT and the names of what it covers.
        var precertificate: CTLogEntry??
        var certificateEntry: CTLogEntry?
        func entry(_ source: SCTEvidence.Source) -> CTLogEntry? {
            if source != .embedded {
                if certificateEntry == nil { certificateEntry = CTLogEntry.certificate(leaf) }
                return certificateEntry
            }
            if precertificate == nil {
                precertificate = issuer.flatMap { CTLogEntry.precertificate(leaf, issuerSPKI: $0.publicKey.der) }
            }
            return precertificate ?? nil
        }
        let verifyMilliseconds = UInt64(max(0, time.secondsSinceEpoch)) * 1000
        // Per log ID, the earliest verified SCT time: embedded (any log), and current (any source,
        // logs not retired).
        var embeddedLogs: [[UInt8]: (log: CTLog, time: Timestamp)] = [:]
        var currentLogs: [[UInt8]: (log: CTLog, time: Timestamp)] = [:]
        var currentEmbedded = false
        var currentExternal = false
        for (source, scts) in batches {
            // What the SCT covers, named: the certificate, or the precertificate and its issuer's key.
            let entryName: [UInt8]? =
                source != .embedded ? leaf.sha256 + [0] : issuer.map { leaf.sha256 + [1] + $0.spkiSHA256 }
            for bytes in scts {
                var e = evidence(
                    bytes, source: source, entryName: entryName, entry: { entry(source) }, leaf: leaf, logs: logs,
                    verifyMilliseconds: verifyMilliseconds, work: &work)
                if e.outcome.isVerified, let log = logs.log(withID: e.logID), let time = e.timestamp {
                    func keepEarliest(_ d: inout [[UInt8]: (log: CTLog, time: Timestamp)]) {
                        if let old = d[log.logID], old.time <= time { return }
                        d[log.logID] = (log, time)
                    }
                    if source == .embedded {
                        keepEarliest(&embeddedLogs)
                        if !log.isRetired {
                            keepEarliest(&currentLogs)
                            currentEmbedded = true
                            e.counted = true
                        }
                    } else {
                        keepEarliest(&currentLogs)
                        currentExternal = true
                        e.counted = true
                    }
                }
                a.scts.append(e)
            }
        }
        a.currentLogs = currentLogs.count
        guard !currentLogs.isEmpty else { return a }

        // verify_tls_ct_policy: 2 current logs with at least one delivered SCT, or enough
        // embedded logs with at least one current.
        if currentExternal && currentLogs.count >= 2 {
            a.qualified = true
            a.qualifiedBy = .tlsExtension
            a.operators = Set(currentLogs.values.map(\.log.operatorName)).sorted()
        }
        guard currentEmbedded else { return a }
        // The issuance time: the earliest current SCT, no later than the evaluation time.
        let issuance = min(time, currentLogs.values.map(\.time).min() ?? time)
        var counted: [CTLog] = []
        for (_, v) in embeddedLogs {
            guard let retired = v.log.retiredFrom else {
                counted.append(v.log)
                continue
            }
            // Once qualified: the log was not yet retired at the SCT's time nor at issuance.
            if v.time < retired && issuance < retired {
                counted.append(v.log)
                for i in a.scts.indices
                where a.scts[i].source == .embedded && a.scts[i].logID == v.log.logID && a.scts[i].outcome.isVerified {
                    a.scts[i].counted = true
                }
            }
        }
        a.qualifiedEmbeddedLogs = counted.count
        if !a.qualified, counted.count >= a.requiredEmbedded {
            a.qualified = true
            a.qualifiedBy = .embedded
            a.operators = Set(counted.map(\.operatorName)).sorted()
        }
        return a
    }

    /// The embedded SCTs trustd asks for the leaf's lifetime in `era`.
    static func requiredEmbedded(_ leaf: Certificate, era: CTPolicyEra) -> Int {
        switch era {
        case .beforeApril2021:
            let months = wholeMonths(from: leaf.notBefore, to: leaf.notAfter)
            return months < 15 ? 2 : months <= 27 ? 3 : months <= 39 ? 4 : 5
        case .fromApril2021:
            let seconds = leaf.notAfter.secondsSinceEpoch - leaf.notBefore.secondsSinceEpoch
            return seconds <= 180 * 86_400 ? 2 : seconds <= 825 * 86_400 ? 3 : 4
        }
    }

    /// Whole calendar months from `start` to `end` in UTC, as a Gregorian calendar counts them: the
    /// most months that, added to `start` (a day past the end of the month clamped to its last
    /// day), do not pass `end`.
    static func wholeMonths(from start: Timestamp, to end: Timestamp) -> Int {
        guard end > start else { return 0 }
        let s = Civil(start)
        let e = Civil(end)
        var months = (e.year - s.year) * 12 + (e.month - s.month)
        while months > 0 && s.addingMonths(months) > end { months -= 1 }
        return months
    }

    /// A date's calendar fields in UTC.
    struct Civil {
        var year: Int, month: Int, day: Int, secondOfDay: Int64

        init(_ t: Timestamp) {
            let days = Int(t.secondsSinceEpoch.floorDiv(86_400))
            secondOfDay = t.secondsSinceEpoch - Int64(days) * 86_400
            // Howard Hinnant's days-to-civil.
            let z = days + 719_468
            let era = (z >= 0 ? z : z - 146_096) / 146_097
            let doe = z - era * 146_097
            let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
            let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
            let mp = (5 * doy + 2) / 153
            day = doy - (153 * mp + 2) / 5 + 1
            month = mp < 10 ? mp + 3 : mp - 9
            year = yoe + era * 400 + (month <= 2 ? 1 : 0)
        }

        func addingMonths(_ n: Int) -> Timestamp {
            let total = year * 12 + (month - 1) + n
            let y = total / 12
            let m = total % 12 + 1
            let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
            let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            // Certificate dates lie in years 0...9999, where this always exists; past them the
            // count simply stops growing.
            guard let midnight = Timestamp(year: y, month: m, day: min(day, lengths[m - 1])) else {
                return Timestamp(secondsSinceEpoch: .max)
            }
            return midnight.adding(seconds: secondOfDay)
        }
    }

    /// The leaf's embedded SCTs: the SCT list extension's OCTET STRING, split (none when it is
    /// missing or its framing is wrong).
    static func embeddedSCTs(_ leaf: Certificate) -> [[UInt8]] {
        guard let ext = leaf.extensions.first(where: { $0.oid == .sctList }) else { return [] }
        var r = DERReader(ext.value)
        guard let node = try? r.read(DERTag.octetString, "SignedCertificateTimestampList") else { return [] }
        return SignedCertificateTimestampList.split(Array(r.content(node))) ?? []
    }

    /// The SCTs of the stapled OCSP response's single response for the leaf (trustd's
    /// copy_ocsp_scts): none when the response does not decode, is not successful or has no
    /// response for the leaf. Its signature is not checked for this.
    static func ocspSCTs(_ der: [UInt8]?, _ leaf: Certificate, _ issuer: Certificate) -> [[UInt8]] {
        guard let der, let response = try? OCSPResponse(der: der),
            let single = response.response(for: leaf, issuer: issuer), let list = single.sctList
        else { return [] }
        return SignedCertificateTimestampList.split(list) ?? []
    }

    /// One SCT through trustd's getSCTValidatingLog, in its order of questions.
    static func evidence(
        _ bytes: [UInt8], source: SCTEvidence.Source, entryName: [UInt8]?, entry: () -> CTLogEntry?,
        leaf: Certificate, logs: CTLogList, verifyMilliseconds: UInt64, work: inout some SignatureWork
    ) -> SCTEvidence {
        let sct: SignedCertificateTimestamp
        switch SignedCertificateTimestamp.parse(bytes) {
        case .failure(let why):
            return SCTEvidence(source: source, logID: [], outcome: .unreadable(why.description))
        case .success(let s): sct = s
        }
        let log = logs.log(withID: sct.logID)
        var e = SCTEvidence(
            source: source, logID: sct.logID, timestamp: sct.timestamp, logName: log?.description,
            operatorName: log?.operatorName, logState: log?.state, outcome: .verified)
        func outcome(_ o: SCTEvidence.Outcome) -> SCTEvidence {
            e.outcome = o
            return e
        }
        guard sct.version == 0 else { return outcome(.unsupportedVersion(sct.version)) }
        guard sct.timestampMilliseconds <= verifyMilliseconds else { return outcome(.inTheFuture) }
        guard let entryName else { return outcome(.noPrecertificate) }
        guard let log else { return outcome(.unknownLog) }
        guard log.state.isTrusted else { return outcome(.logNotTrusted(log.state)) }
        if source != .embedded && log.isRetired { return outcome(.retiredLogDelivered) }
        if let frozen = log.readOnlyFrom, sct.timestamp > frozen { return outcome(.afterReadOnly(frozen)) }
        if let start = log.intervalStart, leaf.notAfter < start { return outcome(.outsideTemporalInterval) }
        if let end = log.intervalEnd, leaf.notAfter >= end { return outcome(.outsideTemporalInterval) }
        func result(_ r: SignatureCheckResult) -> SCTEvidence {
            switch r {
            case .valid: outcome(.verified)
            case .invalid: outcome(.signatureInvalid)
            case .unsupported(let why), .refused(let why): outcome(.signatureUnsupported(why))
            }
        }
        // The cache's names: the SCT with what it covers, and the log's key itself (a list may
        // give a log ID another list gives another key).
        let identity = DigestKey(Digest.sha256(sct.encoded + entryName))
        let keyIdentity = DigestKey(Digest.sha256(log.key))
        if let known = work.cachedResult(of: identity, signedBy: keyIdentity) { return result(known) }
        let key: PublicKeyInfo
        do {
            key = try PublicKeyInfo(spkiDER: log.key)
        } catch {
            return outcome(.logKeyUnusable(error.reason))
        }
        guard let algorithm = sct.signatureAlgorithmIdentifier else {
            return outcome(
                .signatureUnsupported(
                    "hash \(sct.hashAlgorithm) with signature \(sct.signatureAlgorithm) is not one trustd accepts"))
        }
        guard let entry = entry() else { return outcome(.noPrecertificate) }
        guard work.charge(object: identity, key: keyIdentity) else { return outcome(.notChecked) }
        let object = DetachedSignature.over(
            ArraySlice(sct.signedData(over: entry)), identity: identity, algorithm: algorithm, signature: sct.signature)
        return result(work.check(object, signedBy: key, keyIdentity: keyIdentity, isRevocation: false))
    }
}

extension Int64 {
    fileprivate func floorDiv(_ d: Int64) -> Int64 {
        let q = self / d
        return (self % d != 0 && (self < 0) != (d < 0)) ? q - 1 : q
    }
}
