import TrustCore

/// The system trust store used by `check`, created here and nowhere else.
///
/// This build has no reader for the platform's trust store yet, so there is none: without
/// `--anchor` nothing is trusted, which is what an empty store would give (reports say
/// "no system trust store"). When TrustCore gains `SystemTrustStore`, this returns
/// `SystemTrustStore.fromEnvironment()` and nothing else in the command changes.
func makeSystemStore() -> (any IssuerSource)? {
    nil
}
