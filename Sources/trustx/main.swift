#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The clock is read once here; everything below takes the time as a value.
let status = Output.finalStatus(
    Trustx.main(Array(CommandLine.arguments.dropFirst()), now: currentTime(), environment: .current()))
// Everything the run wrote is flushed, then the process ends without the exit handlers: OpenSSL's
// cleanup of its providers and tables was 4.7% of a `check HOST` run's instructions, work the
// kernel does anyway when the process goes (docs/benchmarks.md, docs/DECISIONS.md D193).
fflush(nil)
_exit(status.rawValue)
