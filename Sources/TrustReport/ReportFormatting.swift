import TrustCore
import TrustSupport
import TrustX509

/// Pieces of text every report shares, so text and Markdown say the same things.
public enum ReportFormatting {
    /// Lowercase hex, built as bytes (fingerprints are hex-encoded several times per report).
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count * 2)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `EC P-256 (256 bits)`, `RSA 2048 bits`.
    public static func keyDescription(_ k: PublicKeyInfo) -> String {
        switch k.type {
        case .ec, .ed25519, .ed448: k.bits > 0 ? "\(k.type.label) (\(k.bits) bits)" : k.type.label
        default: k.bits > 0 ? "\(k.type.label) \(k.bits) bits" : k.type.label
        }
    }

    /// Where path certificate `i` came from, in words (`server #0`, `fetched (AIA)`,
    /// `trusted custom anchor`), as the reports and the explorer show it.
    public static func sourceDescription(_ e: Evaluation, _ i: Int) -> String {
        let source = i < e.path.sources.count ? e.path.sources[i] : .presented
        var text: String
        switch source {
        case .presented:
            let n = e.presented.firstIndex { $0.sha256 == e.path.certificates[i].sha256 }
            let word = e.presentedSource == .file ? "file" : (e.connection == nil ? "presented" : "server")
            text = n.map { "\(word) #\($0)" } ?? word
        case .anchor: text = "custom anchor"
        case .systemStore: text = "system trust store"
        case .aia: text = "fetched (AIA)"
        case .file: text = "file"
        }
        if i == e.path.certificates.count - 1, let cls = e.path.anchorClass {
            let anchor = "trusted \(anchorClassName(cls))"
            if source != .anchor { text += ", \(anchor)" } else { text = anchor }
        }
        return text
    }

    /// `system root`, `custom anchor (app)`, `custom anchor (device)`: an anchor with its class.
    public static func anchorClassName(_ c: AnchorClass) -> String {
        switch c {
        case .system: "system root"
        case .custom: "custom anchor (app)"
        case .device: "custom anchor (device)"
        }
    }

    /// Which anchors are trusted, of which class, and through which Apple calls, in one line.
    static func anchorsDescription(_ s: TrustSettings) -> String {
        if s.anchors.isEmpty {
            return s.systemStore == nil ? "none (no system trust store)" : "system roots"
        }
        let n = s.anchors.count
        let plural = n == 1 ? "" : "s"
        let parents = s.systemStore == nil ? "" : "; system store used for parents only"
        switch s.customAnchorClass {
        case .app:
            let custom = "\(n) custom anchor\(plural) (app)"
            if s.trustsSystemAnchors {
                return "\(custom) and system roots (SecTrustSetAnchorCertificatesOnly(false))"
            }
            return "\(custom) only (SecTrustSetAnchorCertificates\(parents))"
        case .device:
            // No Apple call: a configuration profile installed them and the user trusted them.
            let custom = "\(n) custom anchor\(plural) (device: profile, trusted in Settings)"
            return s.trustsSystemAnchors ? "\(custom) and system roots" : "\(custom) only\(parents)"
        }
    }

    /// Warnings about how the check differs from what an app would do, one line each: the SNI
    /// the ClientHello carried is not the host the SSL policy checks (D308). URLSession sends the
    /// host it checks as SNI (none for an IP address), so a server that chooses its certificate
    /// by SNI may send an app another chain than the one evaluated.
    public static func warnings(_ e: Evaluation) -> [String] {
        guard let c = e.connection, case .ssl(let host?) = e.settings.policy else { return [] }
        func plain(_ name: String) -> String {
            var n = name.lowercased()
            while n.hasSuffix(".") { n.removeLast() }
            return n
        }
        let expected = parseIPAddress(host) == nil ? plain(host) : nil
        let sent = c.target.sni.map(plain)
        guard sent != expected else { return [] }
        let what = sent.map { "the ClientHello carried SNI \($0)" } ?? "the ClientHello carried no SNI"
        let app =
            expected.map { "an app connecting to \(host) sends SNI \($0)" }
            ?? "an app connecting to an IP address sends none"
        return [
            "the SSL policy checks the host \(host) but \(what), while \(app): a server that chooses its certificate by SNI may send the app another chain"
        ]
    }

    /// The evaluation time and where it came from: `2027-01-01T00:00:00Z (now)` when it is the
    /// clock at the evaluation, `(fixed)` when the user gave it.
    static func timeDescription(_ s: TrustSettings) -> String {
        "\(s.time.rfc3339) (\(s.timeMode == .now ? "now" : "fixed"))"
    }

    /// Who evaluates, with the rule that makes the difference: `safari (Apple's own programs: ...)`.
    static func clientDescription(_ s: TrustSettings) -> String {
        guard s.client == .safari else { return s.client.rawValue }
        return
            "safari (Apple's own programs: a root valid over 120 days expires 60 days early; Apple-internal builds only in Security-61901)"
    }

    /// Which store gives the system roots and where it reads them (`apple: Apple's root store,
    /// security_certificates-...`), or `none`.
    static func storeDescription(_ s: TrustSettings) -> String {
        guard let store = s.systemStore else { return "none" }
        return store.storeName == store.location ? store.location : "\(store.storeName): \(store.location)"
    }

    /// `apple: trusted · openssl: not trusted; the difference: NAME (sha256 0123456789abcdef…), a
    /// root of apple only`: the "trusted by" line.
    public static func trustedBy(_ c: StoreComparison) -> String {
        if let skipped = c.skipped { return "(\(skipped))" }
        var text = c.sides.map { "\($0.storeName): \($0.trusted ? "trusted" : "not trusted")" }
            .joined(separator: " · ")
        if let root = c.differingRoot {
            let only = c.storesWithDifferingRoot.joined(separator: " and ")
            text +=
                "; the difference: \(root.displayName) (sha256 \(hex(root.sha256).prefix(16))…), a root of \(only) only"
        }
        return text
    }

    /// `SSLHostname · errSecHostNameMismatch (-67602)`, or why no code applies.
    static func appleCode(_ step: Step, separator: String) -> String? {
        guard step.status == .failed else { return nil }
        if let code = atsCode(step, separator: separator) { return code }
        guard let f = step.appleFailure else {
            if step.id == .signature { return "path discarded; no OSStatus of its own" }
            if step.id == .pin { return "the app's delegate cancels; no OSStatus" }
            return nil
        }
        return "\(f.check) \(separator) \(OSStatusNames.name(f.osstatus)) (\(f.osstatus))"
    }

    /// The group label of a path certificate.
    static func certificateLabel(_ e: Evaluation, _ i: Int) -> String {
        guard i >= 0 && i < e.path.certificates.count else { return "certificate \(i)" }
        return e.path.certificates[i].displayName
    }

    /// The verdict's codes in one line.
    static func codes(_ v: Verdict, separator: String) -> String {
        var text = "\(v.osstatusName) (\(v.osstatus))"
        if let url = v.urlError, let name = v.urlErrorName {
            text += " \(separator) URLSession: \(name) (\(url))"
        }
        return text
    }

    /// Path-level steps first (chain, name constraints, anchor, pin), then each certificate's.
    static func groups(_ e: Evaluation) -> [(Int?, [Step])] {
        var out: [(Int?, [Step])] = []
        let pathLevel = e.steps.filter { $0.certificate == nil }
        if !pathLevel.isEmpty { out.append((nil, pathLevel)) }
        for i in e.path.certificates.indices {
            let steps = e.steps(forCertificate: i)
            if !steps.isEmpty { out.append((i, steps)) }
        }
        // Steps naming an index outside the path would be an engine bug; show them rather than drop them.
        let known = Set(e.path.certificates.indices)
        let stray = e.steps.filter { $0.certificate.map { !known.contains($0) } ?? false }
        if !stray.isEmpty { out.append((-1, stray)) }
        return out
    }
}
