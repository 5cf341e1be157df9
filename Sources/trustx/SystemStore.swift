import TrustCore
import TrustX509

/// The system trust store used by `check`, created here and nowhere else: the roots OpenSSL's
/// default paths name (`SSL_CERT_FILE`, `SSL_CERT_DIR`, else /etc/ssl/certs). Nothing is read
/// until path building asks for an issuer by subject.
func makeSystemStore() -> (any IssuerSource)? {
    SystemTrustStore.fromEnvironment()
}
