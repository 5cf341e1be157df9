import ATSModel
import TrustSupport
import TrustX509

extension PinAdvice {
    /// The advice for `path` under `settings`.
    static func advise(path: BuiltPath, presented: [Certificate], settings: TrustSettings) -> [PinAdvice] {
        var out: [PinAdvice] = []
        let pathKeys = path.certificates.map(\.spkiSHA256)
        func unmatched(_ digest: [UInt8], _ source: Source) -> PinAdvice? {
            guard !pathKeys.contains(digest) else { return nil }
            let pin = Base64.encode(digest)
            if let i = presented.firstIndex(where: { $0.spkiSHA256 == digest }) {
                return PinAdvice(source: source, kind: .unusedPresented(pin: pin, presentedIndex: i))
            }
            return PinAdvice(source: source, kind: .matchesNothing(pin: pin))
        }
        let pins = settings.pins.digests
        if !pins.isEmpty {
            if pins.count == 1 { out.append(PinAdvice(source: .option, kind: .singlePin(pin: Base64.encode(pins[0])))) }
            let matched = Set(pins.flatMap { p in pathKeys.indices.filter { pathKeys[$0] == p } })
            if matched == [0] { out.append(PinAdvice(source: .option, kind: .leafOnly)) }
            out += pins.compactMap { unmatched($0, .option) }
        }
        guard let ats = settings.ats, settings.policy.isSSL, let host = settings.policy.host else { return out }
        let match = PinnedDomainMatch(ats.configuration.pinnedDomains, host: host)
        for (category, pins) in [(PinCategory.leaf, match.leaf), (.ca, match.ca)] {
            guard let pins else { continue }
            let source = Source.pinnedDomains(domains: pins.domains, category: category)
            let usable = pins.identities.compactMap(\.digest)
            if Set(usable).count == 1 {
                out.append(PinAdvice(source: source, kind: .singlePin(pin: Base64.encode(usable[0]))))
            }
            if category == .leaf && match.ca == nil { out.append(PinAdvice(source: source, kind: .leafOnly)) }
            var seen = Set<[UInt8]>()
            for d in usable where seen.insert(d).inserted {
                if let advice = unmatched(d, source) { out.append(advice) }
            }
        }
        return out
    }
}
