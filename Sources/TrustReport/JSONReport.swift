import ATSModel
import TrustCore
import TrustOptions
import TrustSupport
import TrustX509

/// Renders an `Evaluation` as the versioned JSON document described in docs/json-report.md.
///
/// Keys always appear in the same order and absent values are `null` rather than missing, so
/// two reports can be compared with `diff` and consumers need no optional-key handling.
public enum JSONReport {
    /// The schema version: bumped when a key is renamed, removed or changes meaning
    /// (adding keys does not bump it).
    public static let schemaVersion = 1

    /// The whole document, ending in a newline.
    /// - Parameter evaluation: The evaluation to render.
    /// - Returns: Pretty-printed JSON.
    public static func render(_ evaluation: Evaluation, includePEM: Bool = false) -> String {
        JSONWriter.serialize(document(evaluation, includePEM: includePEM))
    }

    /// The document as a value, for callers that embed it.
    /// - Parameters:
    ///   - e: The evaluation to render.
    ///   - includePEM: Whether each certificate of `presented` and `path` carries its PEM
    ///     (`check --include-pem`); without it the key is left out, not null (D413).
    /// - Returns: The top-level object.
    public static func document(_ e: Evaluation, includePEM: Bool = false) -> JSONValue {
        .object([
            ("schema", .int(schemaVersion)),
            ("target", e.connection?.targetJSON() ?? .null),
            ("connection", e.connection?.connectionJSON() ?? .null),
            (
                "presented",
                .array(
                    e.presented.enumerated().map {
                        certificate($0.element, index: $0.offset, source: e.presentedSource, includePEM: includePEM)
                    })
            ),
            ("unreadable", .array(e.unreadable.map { .string($0) })),
            ("warnings", .array(ReportFormatting.warnings(e).map { .string($0) })),
            ("path", .array(pathEntries(e, includePEM: includePEM))),
            ("served", served(e)),
            ("candidatePaths", .int(e.candidatePaths)),
            ("settings", settings(e.settings)),
            ("steps", .array(e.steps.map(step))),
            ("verdict", verdict(e)),
            ("ats", ats(e)),
            ("pinAdvice", .array(e.pinAdvice.map(pinAdvice))),
            ("trustedBy", trustedBy(e.storeComparison)),
        ])
    }

    /// The ATS configuration and the host's resolved policy, null without ATS.
    static func ats(_ e: Evaluation) -> JSONValue {
        guard let a = e.settings.ats, let p = e.atsPolicy else { return .null }
        return .object([
            ("source", .string(a.source)),
            ("platform", .string(a.platform.rawValue)),
            ("scheme", .string(a.scheme.rawValue)),
            ("enforced", .bool(p.enforced)),
            ("reason", .string(p.reason)),
            ("matchedException", .string(p.matchedException)),
            ("minimumTLSVersion", .string(p.minimumTLSVersion.description)),
            ("requiresForwardSecrecy", .bool(p.requiresForwardSecrecy)),
            ("restrictsCipherSuites", .bool(p.restrictsCipherSuites)),
            ("allowsInsecureHTTP", .bool(p.allowsInsecureHTTP)),
            ("notes", .array(p.notes.map { .string($0) })),
            (
                "configurationNotes",
                .array(
                    a.configuration.notes.map {
                        .object([
                            ("keyPath", .array($0.keyPath.map { .string($0) })),
                            ("message", .string($0.description)),
                        ])
                    })
            ),
        ])
    }

    static func pinAdvice(_ a: PinAdvice) -> JSONValue {
        var domains = JSONValue.null
        var category = JSONValue.null
        if case .pinnedDomains(let d, let c) = a.source {
            domains = .array(d.map { .string($0) })
            category = .string(c.rawValue)
        }
        var presented = JSONValue.null
        if case .unusedPresented(_, let i) = a.kind { presented = .int(i) }
        return .object([
            ("kind", .string(a.identifier)),
            ("source", .string(a.source == .option ? "pin-option" : "NSPinnedDomains")),
            ("domains", domains),
            ("category", category),
            ("pin", .string(a.pin)),
            ("presentedIndex", presented),
            ("message", .string(a.message)),
        ])
    }

    static func certificate(_ c: Certificate, index: Int, source: CertificateSource, includePEM: Bool = false)
        -> JSONValue
    {
        withPEM(
            c, includePEM,
            [
                ("index", .int(index)),
                ("subject", .string(c.subject.description)),
                ("issuer", .string(c.issuer.description)),
                ("serial", .string(ReportFormatting.hex(c.serialNumber))),
                ("notBefore", .string(c.notBefore.rfc3339)),
                ("notAfter", .string(c.notAfter.rfc3339)),
                (
                    "san",
                    .array(
                        (c.subjectAltNames ?? []).map {
                            .object([("type", .string($0.typeName)), ("value", .string($0.valueText))])
                        })
                ),
                ("key", key(c.publicKey)),
                ("signatureAlgorithm", .string(c.signatureAlgorithm.name)),
                ("selfIssued", .bool(c.isSelfIssued)),
                ("sha256", .string(ReportFormatting.hex(c.sha256))),
                ("spkiSha256", .string(c.spkiPin)),
                ("source", .string(source.rawValue)),
            ])
    }

    /// `members` as an object, with the certificate's PEM last when asked for.
    static func withPEM(_ c: Certificate, _ includePEM: Bool, _ members: [(String, JSONValue)]) -> JSONValue {
        .object(includePEM ? members + [("pem", .string(PEM.encode(c.der)))] : members)
    }

    static func key(_ k: PublicKeyInfo) -> JSONValue {
        var members: [(String, JSONValue)] = [("type", .string(k.type.identifier)), ("bits", .int(k.bits))]
        if case .ec(let curve) = k.type { members.append(("curve", .string(curve?.name))) }
        return .object(members)
    }

    static func pathEntries(_ e: Evaluation, includePEM: Bool = false) -> [JSONValue] {
        let path = e.path
        let last = path.certificates.count - 1
        return path.certificates.enumerated().map { i, c in
            let presentedIndex = e.presented.firstIndex { $0.sha256 == c.sha256 }
            var source = i < path.sources.count ? path.sources[i] : .presented
            if source == .presented { source = e.presentedSource }
            let anchorClass: AnchorClass? = i == last ? path.anchorClass : nil
            return withPEM(
                c, includePEM,
                [
                    ("index", .int(i)),
                    ("presented", .int(presentedIndex)),
                    ("subject", .string(c.subject.description)),
                    ("sha256", .string(ReportFormatting.hex(c.sha256))),
                    ("source", .string(source.rawValue)),
                    // `anchor` keeps its two values (a device-trusted anchor is a custom one);
                    // `anchorClass` tells app from device.
                    ("anchor", .string(anchorClass.map { $0 == .system ? "system" : "custom" })),
                    ("anchorClass", .string(anchorClass.map(jsonAnchorClass))),
                ])
        }
    }

    /// `system`, `app` or `device`: the class names `--anchor-class` uses, plus `system`.
    static func jsonAnchorClass(_ c: AnchorClass) -> String {
        switch c {
        case .system: "system"
        case .custom: CustomAnchorClass.app.rawValue
        case .device: CustomAnchorClass.device.rawValue
        }
    }

    static func settings(_ s: TrustSettings) -> JSONValue {
        .object(
            [
                ("policy", .string(s.policy.identifier)),
                ("host", .string(s.policy.host ?? s.hostIgnoredByPolicy)),
                (
                    "anchors",
                    .array(
                        s.anchors.map {
                            .object([
                                ("subject", .string($0.subject.description)),
                                ("sha256", .string(ReportFormatting.hex($0.sha256))),
                                ("class", .string(s.customAnchorClass.rawValue)),
                            ])
                        })
                ),
                ("anchorClass", .string(s.customAnchorClass.rawValue)),
                ("anchorsOnly", .bool(!s.anchors.isEmpty && s.anchorsOnly)),
                ("systemAnchors", .bool(s.trustsSystemAnchors)),
                ("systemStore", .string(s.systemStore?.location)),
                ("pins", .array(s.pins.digests.map { .string("sha256//" + Base64.encode($0)) })),
                ("at", .string(s.time.rfc3339)),
                (
                    "evaluationTime",
                    .object([("mode", .string(s.timeMode.rawValue)), ("at", .string(s.time.rfc3339))])
                ),
                ("profile", .string(s.profile.rawValue)),
                ("client", .string(s.client.rawValue)),
            ]
                // The on/off settings as their declarations name them (D362).
                + CheckSetting.all.compactMap(\.reported).map { ($0.key, JSONValue.bool($0.value(s))) }
                + [
                    ("store", .string(s.systemStore?.storeName)),
                    ("storeVersion", .string(s.systemStore?.storeVersion)),
                ])
    }

    /// The chain under Apple's store and this machine's, side by side; null when not compared.
    static func trustedBy(_ c: StoreComparison?) -> JSONValue {
        guard let c else { return .null }
        return .object([
            (
                "stores",
                .array(
                    c.sides.map {
                        .object([
                            ("store", .string($0.storeName)), ("version", .string($0.storeVersion)),
                            ("trusted", .bool($0.trusted)),
                            ("root", .string($0.systemRoot.map { ReportFormatting.hex($0.sha256) })),
                        ])
                    })
            ),
            ("differingRoot", .string(c.differingRoot.map { ReportFormatting.hex($0.sha256) })),
            ("differingRootName", .string(c.differingRoot?.displayName)),
            ("differingRootIn", .array(c.storesWithDifferingRoot.map { .string($0) })),
            ("skipped", .string(c.skipped)),
        ])
    }

    static func step(_ s: Step) -> JSONValue {
        let reason: String? = if case .skipped(let why) = s.status { why } else { nil }
        let failure = s.appleFailure
        // The resulting policy set as data, beside the title that lists it for people.
        let policies = s.finding.validPolicies.map { JSONValue.array($0.map { .string($0) }) } ?? .null
        return .object([
            ("id", .string(s.id.rawValue)),
            ("certificate", .int(s.certificate)),
            ("status", .string(s.status.identifier)),
            ("reason", .string(reason)),
            ("title", .string(s.title)),
            ("detail", .string(s.detail)),
            ("appleCheck", .string(failure?.check)),
            ("appleSubtype", .string(failure?.subtype.name)),
            ("osstatus", .int(failure.map { Int($0.osstatus) })),
            ("policies", policies),
            (
                "atsFailure",
                s.finding.atsFailure.map {
                    .object([
                        ("phase", .string($0.phase.rawValue)),
                        ("osstatus", .int(Int($0.osstatus))),
                        ("osstatusName", .string($0.osstatus == 0 ? nil : OSStatusNames.name($0.osstatus))),
                    ])
                } ?? .null
            ),
            ("scts", s.finding.certificateTransparency.map(scts) ?? .null),
        ])
    }

    static func verdict(_ e: Evaluation) -> JSONValue {
        let v = e.verdict
        let decisive = v.decisiveStep.flatMap { d in e.steps.firstIndex(of: d) }
        return .object([
            ("trusted", .bool(v.trusted)),
            ("osstatus", .int(Int(v.osstatus))),
            ("osstatusName", .string(v.osstatusName)),
            ("resultType", .string(v.resultType.rawValue)),
            ("urlError", .int(v.urlError)),
            ("urlErrorName", .string(v.urlErrorName)),
            ("decisiveStep", .int(decisive)),
            ("summary", .string(v.summary)),
            ("certificateTransparency", .bool(v.certificateTransparency)),
            ("extendedValidation", .bool(v.extendedValidation)),
        ])
    }
}

extension JSONReport {
    /// The document for a connection that produced no chain: the target, the connection's
    /// error, and a verdict that is not trusted with the URLError URLSession would report.
    /// - Parameters:
    ///   - connection: What the connection attempt showed.
    ///   - settings: The settings that would have been evaluated.
    /// - Returns: Pretty-printed JSON, ending in a newline.
    public static func renderConnectionFailure(_ connection: ConnectionReport, settings: TrustSettings) -> String {
        JSONWriter.serialize(connectionFailureDocument(connection, settings: settings))
    }

    /// The document `renderConnectionFailure` prints, as a value.
    /// - Parameters:
    ///   - connection: What the connection attempt showed.
    ///   - settings: The settings that would have been evaluated.
    /// - Returns: The document.
    public static func connectionFailureDocument(_ connection: ConnectionReport, settings: TrustSettings) -> JSONValue {
        let urlError = connection.failure?.urlError
        return .object([
            ("schema", .int(schemaVersion)),
            ("target", connection.targetJSON()),
            ("connection", connection.connectionJSON()),
            ("presented", .array([])),
            ("path", .array([])),
            ("candidatePaths", .int(0)),
            ("settings", JSONReport.settings(settings)),
            ("steps", .array([])),
            (
                "verdict",
                .object([
                    ("trusted", .bool(false)),
                    ("osstatus", .null),
                    ("osstatusName", .null),
                    ("resultType", .null),
                    ("urlError", .int(urlError)),
                    ("urlErrorName", .string(urlError.map(URLErrorNames.name))),
                    ("decisiveStep", .null),
                    ("summary", .string(ConnectionReport.failureSummary(connection))),
                    ("certificateTransparency", .bool(false)),
                    ("extendedValidation", .bool(false)),
                ])
            ),
        ])
    }
}

extension ConnectionReport {
    /// One line: why nothing was evaluated, and what URLSession would report.
    public static func failureSummary(_ c: ConnectionReport) -> String {
        guard let f = c.failure else { return "No chain was received." }
        let code = f.urlError.map { "; URLSession reports \(URLErrorNames.name($0)) (\($0))" } ?? ""
        return "Not trusted: \(f.message)\(code)."
    }
}
