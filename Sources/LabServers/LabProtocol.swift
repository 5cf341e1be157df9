/// How a scenario's server talks before and around TLS.
public enum LabProtocol: String, Hashable, Sendable {
    /// HTTPS: TLS at once, then one HTTP request answered with a text page.
    case https
    /// SMTP on a plain connection, upgraded with STARTTLS (RFC 3207).
    case smtpStartTLS = "smtp"
}
