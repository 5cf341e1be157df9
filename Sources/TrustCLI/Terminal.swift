// The process's contact with the outside: file descriptors, environment and clock, through
// Glibc only. Foundation would add 7-11 ms of start-up against a whole-process budget of about
// 5 ms (docs/cli.md), so it is kept out of the executable.

import Synchronization
import TrustCore
import TrustReport
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Standard output and error of the current run (`RunStreams.current`): its descriptors, written
/// with `write(2)` in one piece per call, or the buffers an in-process caller gave.
enum Output {
    /// The errno of the first write to the run's standard output that failed (a full disk, a
    /// closed descriptor, a reader gone); 0 while every write went through. `finalStatus` turns
    /// it into 73.
    static var outputFailure: Int32 { RunStreams.current.outputFailure.load(ordering: .relaxed) }

    static func out(_ text: String) { write(text, to: 1) }
    static func err(_ text: String) { write(text, to: 2) }

    /// Whether a write of this run gave up for a stop signal (the watch then ends).
    static var stopped: Bool { RunStreams.current.stopped.load(ordering: .relaxed) }

    /// Writes all of `text` to the run's standard output (`stream` 1) or error (2); false when a
    /// write failed, which for standard output is recorded in `outputFailure`, or gave up for a
    /// stop signal (`stopped`).
    @discardableResult
    static func write(_ text: String, to stream: Int32) -> Bool {
        let run = RunStreams.current
        switch stream == 1 ? run.output : run.errorOutput {
        case .capture(let buffer):
            buffer.append(text)
            return true
        case .descriptor(let fd):
            return write(text, descriptor: fd, run: run, recordsFailure: stream == 1)
        }
    }

    /// Writes all of `text` to `fd`, recording a failure in `run`'s `outputFailure` when
    /// `recordsFailure`, and giving up (`stopped`) for one of `run`'s stop signals.
    private static func write(_ text: String, descriptor fd: Int32, run: RunStreams, recordsFailure: Bool) -> Bool {
        let stopSignals = run.stopSignals.withLock { $0 }
        var text = text
        return text.withUTF8 { buffer in
            var offset = 0
            while offset < buffer.count {
                var count = buffer.count - offset
                if let signals = stopSignals {
                    guard waitWritable(fd, signals) else {
                        run.stopped.store(true, ordering: .relaxed)
                        return false
                    }
                    // At most PIPE_BUF: a pipe poll(2) calls writable takes that much at once.
                    count = min(count, 4096)
                }
                let n = systemWrite(fd, buffer.baseAddress! + offset, count)
                if n < 0 {
                    if errno == EINTR { continue }
                    if recordsFailure {
                        _ = run.outputFailure.compareExchange(expected: 0, desired: errno, ordering: .relaxed)
                    }
                    return false
                }
                offset += n
            }
            return true
        }
    }

    /// The run's status once its output is written: an answer (0, 1) that could not be written
    /// becomes 73, with one line on standard error (none when the reader closed the pipe, as
    /// `| head` does: nobody is left to tell). An error's own status stays (D305).
    static func finalStatus(_ status: ExitStatus) -> ExitStatus {
        let failure = outputFailure
        guard failure != 0 else { return status }
        if failure != EPIPE {
            err("Error: cannot write the output to standard output: \(String(cString: strerror(failure)))\n")
        }
        return status == .success || status == .notTrusted ? .cannotCreate : status
    }

    /// Waits until `fd` takes bytes; false when a signal of `signals` is pending (taken).
    static func waitWritable(_ fd: Int32, _ signals: sigset_t) -> Bool {
        var signals = signals
        while true {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            if sigtimedwait(&signals, nil, &none) > 0 { return false }
            var p = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            // Writable, or the reader gone (POLLERR): either way write(2) will not block.
            if poll(&p, 1, 20) != 0 { return true }
        }
    }

    private static func systemWrite(_ fd: Int32, _ p: UnsafePointer<UInt8>, _ count: Int) -> Int {
        #if canImport(Glibc)
            Glibc.write(fd, p, count)
        #else
            Darwin.write(fd, p, count)
        #endif
    }
}

/// What the environment says about how to draw.
public struct Environment: Sendable {
    // The variables the report choices depend on (read once).
    /// NO_COLOR: colour is off when it is set to anything non-empty.
    public var noColor: String?
    /// TERM: `dumb` turns colour off.
    public var term: String?
    /// LC_ALL, LC_CTYPE and LANG: the first non-empty one says whether the locale is UTF-8.
    public var lcAll: String?
    /// LC_CTYPE (see `lcAll`).
    public var lcCType: String?
    /// LANG (see `lcAll`).
    public var lang: String?
    /// Whether standard output is a terminal: colour only then.
    public var stdoutIsTerminal: Bool

    /// An environment with these variables (nil: unset) and standard output on a terminal or not.
    public init(
        noColor: String? = nil, term: String? = nil, lcAll: String? = nil, lcCType: String? = nil,
        lang: String? = nil, stdoutIsTerminal: Bool = false
    ) {
        self.noColor = noColor
        self.term = term
        self.lcAll = lcAll
        self.lcCType = lcCType
        self.lang = lang
        self.stdoutIsTerminal = stdoutIsTerminal
    }

    /// Reads the process environment.
    public static func current() -> Environment {
        func get(_ name: String) -> String? { getenv(name).map { String(cString: $0) } }
        return Environment(
            noColor: get("NO_COLOR"), term: get("TERM"), lcAll: get("LC_ALL"),
            lcCType: get("LC_CTYPE"), lang: get("LANG"), stdoutIsTerminal: isatty(1) == 1)
    }

    /// Colour only on a terminal, never with NO_COLOR set to anything non-empty (no-color.org)
    /// or on a dumb terminal.
    var useColor: Bool {
        stdoutIsTerminal && (noColor ?? "").isEmpty && term != "dumb"
    }

    /// Whether the locale's character set is UTF-8: the first non-empty of LC_ALL, LC_CTYPE and
    /// LANG decides, as setlocale(3) would.
    var localeIsUTF8: Bool {
        let chosen = [lcAll, lcCType, lang].compactMap { $0 }.first { !$0.isEmpty } ?? ""
        // Bytes, not String.contains: that one pulls in _StringProcessing's generic machinery,
        // which costs more at start-up than this whole check.
        let folded: [UInt8] = chosen.utf8.compactMap { b in
            if b == 0x2D || b == 0x5F { return nil }  // utf-8, utf_8, UTF8 all mean UTF-8
            return b >= 0x41 && b <= 0x5A ? b + 0x20 : b
        }
        let needle: [UInt8] = Array("utf8".utf8)
        guard folded.count >= needle.count else { return false }
        return (0...(folded.count - needle.count)).contains { folded[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// The text report's options for standard output.
    var textOptions: TextReport.Options {
        TextReport.Options(styling: useColor ? .ansi : .plain, unicode: localeIsUTF8)
    }
}

/// The wall clock, read once per process in main and passed down (the engine never reads it).
public func currentTime() -> Timestamp {
    var ts = timespec()
    clock_gettime(CLOCK_REALTIME, &ts)
    return Timestamp(secondsSinceEpoch: Int64(ts.tv_sec))
}
