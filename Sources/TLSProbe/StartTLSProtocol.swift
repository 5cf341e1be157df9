/// The plaintext protocols that upgrade to TLS in-band.
public enum StartTLSProtocol: String, Hashable, Sendable, CaseIterable {
    /// SMTP (RFC 3207): EHLO, STARTTLS, 220.
    case smtp
    /// IMAP (RFC 3501 6.2.1): `STARTTLS` tagged command.
    case imap
    /// POP3 (RFC 2595 4): STLS.
    case pop3
    /// FTP (RFC 4217): AUTH TLS, 234.
    case ftp
    /// PostgreSQL's SSLRequest message, answered with `S`.
    case postgres

    /// The port the protocol usually listens on.
    public var defaultPort: UInt16 {
        switch self {
        case .smtp: 587
        case .imap: 143
        case .pop3: 110
        case .ftp: 21
        case .postgres: 5432
        }
    }
}
