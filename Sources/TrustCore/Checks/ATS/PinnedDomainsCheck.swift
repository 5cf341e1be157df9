import ATSModel
import TrustX509

/// `pinned-domains`: NSPinnedDomains, which Apple's SSL policy reads from the app's Info.plist
/// whenever it is created with a host, whatever the other ATS keys say (NSAllowsArbitraryLoads
/// and local-host exemptions included): pins are part of evaluation, with the Pinning subtype.
/// A leaf category step on the leaf, a CA category step where it matched (path-level when it
/// did not); both must pass.
struct PinnedDomainsCheck: PathCheck {
    /// Whether the policy reads NSPinnedDomains (Apple's SSL policy does; Basic X.509 does not).
    let consulted: Bool

    func run(_ c: CheckContext, budget: inout WorkMeter, into steps: inout [Step]) {
        guard let ats = c.settings.ats else { return }
        guard consulted else {
            steps.append(
                Step(
                    .pinnedDomains, nil, .notApplicable,
                    .pinnedDomains(.notConsulted(reason: "SecPolicyCreateBasicX509() does not read NSPinnedDomains"))))
            return
        }
        guard let host = c.settings.policy.host else {
            let why = "SecPolicyCreateSSL(true, nil) has no host to match, so NSPinnedDomains is not consulted"
            steps.append(Step(.pinnedDomains, nil, .skipped(why), .pinnedDomains(.notConsulted(reason: why))))
            return
        }
        let pins = PinnedDomainMatch(ats.configuration.pinnedDomains, host: host)
        if pins.domains.isEmpty {
            steps.append(
                Step(
                    .pinnedDomains, nil, .notApplicable,
                    .pinnedDomains(.noEntry(host: host, entries: ats.configuration.pinnedDomains.count))))
            return
        }
        if let leafPins = pins.leaf {
            let leaf = c.certificates[0]
            if leafPins.digests.contains(leaf.spkiSHA256) {
                steps.append(
                    Step(
                        .pinnedDomains, 0, .passed,
                        .pinnedDomains(.leafMatched(domains: leafPins.domains, pin: leaf.spkiPin))))
            } else {
                steps.append(
                    Step(
                        .pinnedDomains, 0, .failed,
                        .pinnedDomains(
                            .leafNotMatched(
                                domains: leafPins.domains, pins: leafPins.count, usable: leafPins.digests.count))))
            }
        }
        if let caPins = pins.ca {
            // Index 1 onwards of the built path: the anchor counts, wherever it came from.
            if let i = c.certificates.indices.dropFirst().first(where: {
                caPins.digests.contains(c.certificates[$0].spkiSHA256)
            }) {
                steps.append(
                    Step(
                        .pinnedDomains, i, .passed,
                        .pinnedDomains(.caMatched(domains: caPins.domains, pin: c.certificates[i].spkiPin))))
            } else {
                steps.append(
                    Step(
                        .pinnedDomains, nil, .failed,
                        .pinnedDomains(
                            .caNotMatched(
                                domains: caPins.domains, pins: caPins.count, usable: caPins.digests.count,
                                pathLength: c.count))))
            }
        }
    }
}
