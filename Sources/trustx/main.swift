#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

// The clock is read once here; everything below takes the time as a value.
let status = Trustx.main(Array(CommandLine.arguments.dropFirst()), now: currentTime(), environment: .current())
exit(status.rawValue)
