import CommandLineSpec
import ExplorerState

// `trustx explore --watch SECONDS` (and plain `trustx --watch SECONDS` for the lab): how often
// the explorer's `l` connects to a watched target again.
extension ExploreCommand {
    /// The explorer's `--watch`: it sets the interval, the watching itself starts with `l`.
    static let watchOption = OptionSpec(
        name: "watch", valueName: "seconds", arity: .one,
        help:
            "How often a target watched with l is connected to again, in whole seconds (\(AppState.minimumWatchSeconds)-\(AppState.maximumWatchSeconds)); l on a server starts and stops watching it.",
        defaultText: "20")

    /// Watch options of `check` that the explorer does not inherit: it has its own `--watch`,
    /// and its watch runs until `l` or `q`.
    static let watchOptionNames: Set<String> = ["watch", "watch-count"]

    /// The interval `--watch` gives, 20 seconds without it.
    static func watchInterval(_ p: ParsedArguments) throws(UsageError) -> Duration {
        guard let text = p.value("watch") else { return .seconds(20) }
        guard let seconds = Int(text), seconds >= AppState.minimumWatchSeconds,
            seconds <= AppState.maximumWatchSeconds
        else {
            throw UsageError(
                message:
                    "The value '\(text)' is invalid for '--watch <seconds>': expected whole seconds from \(AppState.minimumWatchSeconds) to \(AppState.maximumWatchSeconds)"
            )
        }
        return .seconds(seconds)
    }
}
