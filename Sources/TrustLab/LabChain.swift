import TrustBuilder
import TrustX509

/// How a scenario's server comes by the chain it sends: the scenario's own recipe, declared in
/// its entry, made from the lab's shared CAs and keys (`LabParts`).
///
/// Recipes are handed the scenario itself, so a leaf names the scenario's host and a cached RSA
/// key takes the scenario's name as its role without either being spelled twice (D330).
struct LabChain: Sendable {
    /// When the chain is made.
    enum Timing: Sendable {
        /// At start-up, before the lab prints its table.
        case atStart
        /// For the first client (`LabDeferredServer`): a certificate too slow to make at start-up.
        case firstClient
        /// At start-up when the RSA key of these bits is cached already (`LabSlowKeys`), else for
        /// the first client, the key being made in the background from the lab's start (D310).
        case whenKeyReady(bits: Int)
    }

    /// Makes the chain.
    typealias Make = @Sendable (LabParts, LabScenario) throws(BuilderError) -> LabServedChain

    /// When the chain is made.
    var timing: Timing
    /// Makes the chain.
    var make: Make

    /// A chain made when `timing` says.
    init(_ timing: Timing = .atStart, _ make: @escaping Make) {
        self.timing = timing
        self.make = make
    }

    /// The walkthrough's leaf, which lessons that change only what is around it share.
    static let good = LabChain { p, _ in LabServedChain(p.lab.good) }

    /// A walkthrough leaf of `issuer` (Library Test CA unless given), changed by `configure`.
    static func leaf(
        of issuer: KeyPath<LabPKI, LabIssued> & Sendable = \.libraryCA,
        _ configure: @escaping @Sendable (inout CertificateBuilder, LabPKI) -> Void = { _, _ in }
    ) -> LabChain {
        LabChain { p, _ throws(BuilderError) in
            LabServedChain(try p.lab.leaf(issuer: p.lab[keyPath: issuer]) { configure(&$0, p.lab) })
        }
    }

    /// Whether the chain is made at start-up in this run (a slow key is once it is cached).
    var madeAtStart: Bool {
        switch timing {
        case .atStart: true
        case .firstClient: false
        case .whenKeyReady(let bits): LabSlowKeys.cached(bits: bits) != nil
        }
    }

    /// The bits of the slow RSA key the chain waits for, if any.
    var slowKeyBits: Int? {
        if case .whenKeyReady(let bits) = timing { return bits }
        return nil
    }
}

/// A server a scenario needs beside its own.
public enum LabExtraServer: Hashable, Sendable {
    /// The HTTP server handing out the intermediate at the AIA caIssuers URL the scenario's
    /// leaf names (port base + `LabScenario.aiaPortOffset`).
    case aiaIntermediate
}

/// The CA whose client certificates a scenario's server requires.
public enum LabClientCA: Hashable, Sendable {
    /// The lab's client CA, which issued the learner's identity.
    case learners
    /// A CA that issued nobody anything (badssl.com's client-cert-missing).
    case unused
}

/// Every CA, key and shared leaf of one lab run, which the scenarios' recipes build on: built
/// whole whatever the selection, so anchors and pins never depend on it.
struct LabParts: Sendable {
    /// The lab's own PKI (Library Test CA and its relatives).
    var lab: LabPKI
    /// The badssl.com PKI.
    var badssl: BadSSLPKI
    /// The TLS-inspection proxy's root and key.
    var inspection: InspectionPKI
    /// The Certificate Transparency root and logs.
    var ct: CTPKI
    /// The staging fleet's chains.
    var fleet: FleetPKI
    /// The root the distrust lessons constrain by date, and its leaves.
    var distrust: DistrustPKI
    /// The root that expires within 60 days, and its leaf.
    var expiring: ExpiringRootPKI

    /// The certificate of `clientCA`.
    func certificate(of clientCA: LabClientCA) -> Certificate {
        switch clientCA {
        case .learners: lab.clientCA.certificate
        case .unused: badssl.missingClientCA
        }
    }
}
