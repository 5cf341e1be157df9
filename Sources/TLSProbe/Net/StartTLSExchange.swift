extension StartTLSProtocol {
    /// What the probe waits for before TLS can start, for messages: a server that speaks another
    /// protocol (or TLS at once) usually answers nothing, and a timeout must say what was awaited.
    public var awaitedExchange: String {
        switch self {
        case .smtp: "an SMTP server's 220 greeting and its answers to EHLO and STARTTLS (SMTP STARTTLS)"
        case .imap: "an IMAP server's * OK greeting and its answer to STARTTLS (IMAP STARTTLS)"
        case .pop3: "a POP3 server's +OK greeting and its answer to STLS (POP3 STARTTLS)"
        case .ftp: "an FTP server's 220 greeting and its answer to AUTH TLS (FTP STARTTLS)"
        case .postgres: "a PostgreSQL server's answer to SSLRequest (PostgreSQL STARTTLS)"
        }
    }
}
