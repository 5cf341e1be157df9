import TrustCLI

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The command line is the TrustCLI library (docs/cli.md); the process gives it its own streams,
// environment and clock, the clock read once here: everything below takes the time as a value.
let status = Trustx.run(
    arguments: Array(CommandLine.arguments.dropFirst()), environment: .current(), standardInput: 0,
    output: .descriptor(1), errorOutput: .descriptor(2), now: currentTime())
// Everything the run wrote is flushed, then the process ends without the exit handlers: OpenSSL's
// cleanup of its providers and tables was 4.7% of a `check HOST` run's instructions, work the
// kernel does anyway when the process goes (docs/benchmarks.md, docs/DECISIONS.md D193).
fflush(nil)
_exit(status)
