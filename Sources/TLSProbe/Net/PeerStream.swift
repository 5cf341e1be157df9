/// Where a plaintext exchange (an HTTP reply, a STARTTLS dialogue, a proxy's CONNECT answer)
/// gets its bytes: a socket under the probe's deadline, or bytes in memory. The parsers see only
/// this, so the fuzz target and the tests feed them exactly what a hostile peer could send.
protocol PeerStream: AnyObject {
    /// Sends all of `bytes`.
    func send(_ bytes: [UInt8]) throws(NetFailure)
    /// Some bytes (at least one); throws `.closed` at the end of the stream.
    func receive() throws(NetFailure) -> [UInt8]
}

/// A connection's socket under one deadline. The deadline is checked before every read, not only
/// when the socket has nothing to give: a peer that keeps the socket full must still be stopped.
final class SocketStream: PeerStream {
    let connection: Connection
    let deadline: Deadline

    init(_ connection: Connection, deadline: Deadline) {
        self.connection = connection
        self.deadline = deadline
    }

    func send(_ bytes: [UInt8]) throws(NetFailure) { try connection.send(bytes, deadline: deadline) }

    func receive() throws(NetFailure) -> [UInt8] {
        if deadline.isExpired { throw .timedOut }
        return try connection.receive(deadline: deadline)
    }
}

/// Bytes in memory as a peer: what is sent is dropped, reads hand out `bytes` in pieces of at
/// most `piece` bytes, then the stream is closed.
final class ScriptedStream: PeerStream {
    private let bytes: [UInt8]
    private let piece: Int
    private var offset = 0

    init(_ bytes: [UInt8], piece: Int = 4096) {
        self.bytes = bytes
        self.piece = max(1, piece)
    }

    func send(_ bytes: [UInt8]) throws(NetFailure) {}

    func receive() throws(NetFailure) -> [UInt8] {
        guard offset < bytes.count else { throw .closed }
        let end = offset + min(piece, bytes.count - offset)
        defer { offset = end }
        return Array(bytes[offset..<end])
    }
}

/// A read buffer over a `PeerStream` for line- and length-framed replies. Consumed bytes are
/// skipped by an index and compacted only when they are at least half of the buffer, and a line
/// search resumes where the last one stopped, so a reply cut into many small lines or chunks
/// costs time in proportion to its size (removing from the front of an array on every line did not).
final class BufferedStream {
    let source: any PeerStream
    private var storage: [UInt8] = []
    /// The first unconsumed byte.
    private var head = 0
    /// Bytes after `head` already searched for a line end.
    private var scanned = 0

    init(_ source: any PeerStream) { self.source = source }

    /// Bytes received and not yet consumed.
    var bufferedCount: Int { storage.count - head }

    func send(_ bytes: [UInt8]) throws(NetFailure) { try source.send(bytes) }

    private func fill() throws(NetFailure) {
        if head > 0 && head >= storage.count / 2 {
            storage.removeFirst(head)
            head = 0
        }
        storage += try source.receive()
    }

    /// One CRLF- (or LF-) terminated line, without its end. A line longer than `maxLength` bytes
    /// is `.overlong`, whether it has ended or not: a bound against a peer that never ends one.
    func readLine(maxLength: Int = 8192) throws(NetFailure) -> String {
        while true {
            if let newline = storage[(head + scanned)...].firstIndex(of: 0x0A) {
                var end = newline
                if end > head && storage[end - 1] == 0x0D { end -= 1 }
                guard end - head <= maxLength else { throw .overlong }
                let line = String(decoding: storage[head..<end], as: UTF8.self)
                head = newline + 1
                scanned = 0
                return line
            }
            scanned = storage.count - head
            if scanned > maxLength { throw .overlong }
            try fill()
        }
    }

    /// Exactly `count` bytes; a negative count is a malformed frame, never a trap.
    func readExactly(_ count: Int) throws(NetFailure) -> [UInt8] {
        guard count >= 0 else { throw .overlong }
        while storage.count - head < count { try fill() }
        defer {
            head += count
            scanned = 0
        }
        return Array(storage[head..<head + count])
    }

    /// Everything up to the end of the stream, refusing more than `limit` bytes (`.overlong`).
    func readToEnd(limit: Int) throws(NetFailure) -> [UInt8] {
        while true {
            guard storage.count - head <= limit else { throw .overlong }
            do {
                try fill()
            } catch .closed {
                return takeBuffer()
            }
        }
    }

    /// Takes whatever was read ahead (the start of a TLS handshake after a plaintext preamble).
    func takeBuffer() -> [UInt8] {
        defer {
            storage = []
            head = 0
            scanned = 0
        }
        return Array(storage[head...])
    }
}
