import TrustCore
import TrustX509

/// `--store`, shared by check, explore, export, lab and ats.
let storeOption = OptionSpec(
    name: "store", valueName: "store", arity: .one,
    help:
        "The system roots: Apple's root store compiled in (what an Apple device trusts), this machine's OpenSSL store (SSL_CERT_FILE, SSL_CERT_DIR, else /etc/ssl/certs), or a PEM bundle or certificate directory at PATH.",
    defaultText: "apple", suggestedValues: ["apple", "openssl"])

/// The store `--store` names; a PATH must exist. Nothing is read yet.
func storeChoice(_ p: ParsedArguments) throws(UsageError) -> TrustStoreChoice {
    guard let value = p.value("store") else { return .apple }
    let choice = TrustStoreChoice(argument: value)
    guard !value.isEmpty, choice.pathExists else {
        throw UsageError(
            message:
                "The value '\(value)' is invalid for '--store <store>': expected apple, openssl, or an existing PEM bundle or certificate directory"
        )
    }
    return choice
}

/// The system trust store, created here and nowhere else: Apple's compiled-in roots by default,
/// this machine's OpenSSL store with `--store openssl`, or the files at a PATH. Nothing is read
/// until path building asks for an issuer by subject.
func makeSystemStore(_ choice: TrustStoreChoice = .apple) -> (any IssuerSource)? {
    choice.makeStore()
}

/// `e` with the "trusted by" comparison: the chain under Apple's store and this machine's
/// OpenSSL store side by side, one of them the evaluation itself. Nothing is compared for a
/// chain whose evaluation ran out of budget, whose answer would not be the store's. The
/// comparison ends by the run's `deadline` too, and says it was skipped when that came first
/// (D326).
func withStoreComparison(_ e: Evaluation, deadline: EvaluationDeadline) -> Evaluation {
    guard !e.steps.contains(where: { $0.id == .budget }) else { return e }
    var out = e
    out.storeComparison = StoreComparison.compare(
        e, stores: [AppleRootStore.shared, SystemTrustStore.fromEnvironment()], evaluator: Evaluator(),
        deadline: deadline)
    return out
}
