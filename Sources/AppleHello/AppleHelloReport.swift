/// What happened to the iOS 26-shaped ClientHello, in plain values for the reports. It says what
/// the server answered and never that a post-quantum handshake completed: the hello is never
/// followed up (this machine's OpenSSL has no ML-KEM, and nobody holds the share's secret).
public struct AppleHelloReport: Sendable, Equatable {
    /// How the exchange ended; the raw value is the stable name the JSON prints.
    public enum Outcome: String, Sendable, CaseIterable, CustomStringConvertible {
        /// A ServerHello came back: the server goes on with one of the offered groups.
        case serverHello = "server-hello"
        /// A HelloRetryRequest came back: the server wants a share of another group.
        case helloRetryRequest = "hello-retry-request"
        /// An alert came back.
        case alert
        /// The connection was reset.
        case reset
        /// Nothing came back within the time allowed.
        case timedOut = "timed-out"
        /// The peer closed the connection without an answer.
        case closed
        /// What came back is not a TLS answer.
        case malformed
        /// The hello was not sent (no connection, no time left).
        case notSent = "not-sent"

        /// The stable name.
        public var description: String { rawValue }
    }

    /// How the exchange ended.
    public var outcome: Outcome
    /// The hello's size on the wire (the record, header included).
    public var helloBytes: Int
    /// The X25519MLKEM768 share's size (1,216).
    public var hybridShareBytes: Int
    /// The version the server chose, e.g. `TLS 1.3`.
    public var version: String?
    /// The cipher suite the server chose, by its IANA name (hex when unnamed).
    public var cipherSuite: String?
    /// The group of the server's key share, or the group a HelloRetryRequest asks for.
    public var group: String?
    /// The alert, e.g. `fatal handshake_failure (40)`.
    public var alert: String?
    /// The bytes received before deciding.
    public var bytesReceived: Int
    /// Milliseconds from sending the hello to the outcome.
    public var milliseconds: Double?
    /// Why, for `malformed` and `notSent` (already free of control characters).
    public var reason: String?

    /// Creates a report.
    public init(
        outcome: Outcome, helloBytes: Int, hybridShareBytes: Int = AppleClientHello.hybridShareBytes,
        bytesReceived: Int = 0, milliseconds: Double? = nil, reason: String? = nil
    ) {
        self.outcome = outcome
        self.helloBytes = helloBytes
        self.hybridShareBytes = hybridShareBytes
        self.bytesReceived = bytesReceived
        self.milliseconds = milliseconds
        self.reason = reason
    }

    /// A report of `answer`.
    /// - Parameters:
    ///   - answer: What the server sent.
    ///   - helloBytes: The hello's size on the wire.
    ///   - bytesReceived: The bytes read.
    ///   - milliseconds: The time to the answer.
    public init(answer: ServerAnswer, helloBytes: Int, bytesReceived: Int, milliseconds: Double?) {
        self.init(outcome: .malformed, helloBytes: helloBytes, bytesReceived: bytesReceived, milliseconds: milliseconds)
        switch answer {
        case .serverHello(let f), .helloRetryRequest(let f):
            if case .serverHello = answer { outcome = .serverHello } else { outcome = .helloRetryRequest }
            version = TLSNames.version(f.version)
            cipherSuite = TLSNames.cipherSuite(f.cipherSuite)
            group = f.group.map(TLSNames.group)
        case .alert(let level, let description):
            outcome = .alert
            alert = TLSNames.alert(level: level, description: description)
        case .malformed(let why):
            reason = why
        }
    }

    /// Whether the server chose X25519MLKEM768 in a ServerHello: it would negotiate the hybrid
    /// with iOS 26 (the handshake itself was not completed here).
    public var serverChoseHybrid: Bool {
        outcome == .serverHello && group == TLSNames.group(AppleClientHello.x25519MLKEM768)
    }

    /// One sentence for people: what came back and what it means for iOS 26.
    public var summary: String {
        let hello = "iOS 26's \(helloBytes)-byte ClientHello (X25519MLKEM768 share of \(hybridShareBytes) bytes)"
        switch outcome {
        case .serverHello:
            let facts = [version, cipherSuite].compactMap { $0 }.joined(separator: ", ")
            guard let group else {
                return "\(hello): a ServerHello (\(facts)); the group is chosen later, as TLS 1.2 does, so "
                    + "iOS 26 connects without the post-quantum group"
            }
            if serverChoseHybrid {
                return "\(hello): a ServerHello choosing X25519MLKEM768 (\(facts)): the server would negotiate "
                    + "the post-quantum hybrid with iOS 26 (not completed here: this machine cannot do ML-KEM)"
            }
            guard Self.sharedGroups.contains(group) else {
                return "\(hello): a ServerHello choosing \(group) (\(facts)), a group it sent no share for: "
                    + "iOS 26 aborts with illegal_parameter (RFC 8446 4.2.8) and fails to connect"
            }
            return "\(hello): a ServerHello choosing \(group) (\(facts)): iOS 26 connects without the "
                + "post-quantum group"
        case .helloRetryRequest:
            if let group, Self.sharedGroups.contains(group) {
                return "\(hello): a HelloRetryRequest for \(group), whose share it already sent: iOS 26 aborts with "
                    + "illegal_parameter (RFC 8446 4.2.8) and fails to connect"
            }
            if let group, !AppleClientHello.groups.map(TLSNames.group).contains(group) {
                return "\(hello): a HelloRetryRequest for \(group), a group it does not offer: iOS 26 aborts with "
                    + "illegal_parameter (RFC 8446 4.2.8) and fails to connect"
            }
            return "\(hello): a HelloRetryRequest for \(group ?? "no group") (\(version ?? "?")): iOS 26 sends "
                + "a second ClientHello, one more round trip"
        case .alert:
            return "\(hello): the server refused it with the alert \(alert ?? "?"): iOS 26 fails to connect "
                + "where smaller ClientHellos pass"
        case .reset:
            return "\(hello): the connection was reset: a server or middlebox that cannot take a large or "
                + "split ClientHello; iOS 26 fails to connect where smaller ClientHellos pass"
        case .timedOut:
            let time = milliseconds.map { " in \(Self.seconds($0))" } ?? ""
            guard bytesReceived == 0 else {
                return "\(hello): no complete answer\(time)\(receivedText): iOS 26 waits on and may fail"
            }
            return "\(hello): no answer\(time): a server or middlebox that drops a large or split ClientHello; "
                + "iOS 26 hangs and fails"
        case .closed:
            return "\(hello): the connection was closed without an answer\(receivedText): iOS 26 fails to "
                + "connect where smaller ClientHellos pass"
        case .malformed:
            return "\(hello): \(reason ?? "an answer that is not TLS")"
        case .notSent:
            return "iOS 26's ClientHello was not sent: \(reason ?? "no connection")"
        }
    }

    /// The groups the hello sent shares for (GREASE aside): a server must pick one of them in a
    /// ServerHello and none of them in a HelloRetryRequest (RFC 8446 4.2.8).
    static let sharedGroups = [AppleClientHello.x25519MLKEM768, AppleClientHello.x25519].map(TLSNames.group)

    private var receivedText: String { bytesReceived == 0 ? "" : " (after \(bytesReceived) bytes)" }

    static func seconds(_ ms: Double) -> String {
        let tenths = Int((ms / 100).rounded())
        return "\(tenths / 10).\(tenths % 10) s"
    }
}
