import CommandLineSpec
import TrustCore
import TrustOptions
import TrustX509

/// `--store`, shared by check, explore, export, lab and ats.
let storeOption = OptionSpec(CheckSetting.store.option)

/// The store `--store` names; a PATH must exist. Nothing is read yet.
func storeChoice(_ p: ParsedArguments) throws(UsageError) -> TrustStoreChoice {
    var settings = CheckSettings()
    try CheckCommand.read([CheckSetting.store], into: &settings, p, target: SettingTarget())
    return settings.store
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
