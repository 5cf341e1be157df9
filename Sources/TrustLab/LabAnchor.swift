/// The certificates the lab offers as `--anchor` files.
public enum LabAnchor: String, Hashable, Sendable, CaseIterable {
    /// The private CA of the walkthrough in docs/lab.md, the anchor of almost every scenario.
    case libraryTestCA = "library-test-ca"
    /// A second CA, which signs the rogue-ca server (trusting a CA trusts all it signs).
    case rogueCA = "rogue-ca"
    /// The root of untrusted-root: a CA nobody told the client about.
    case untrustedRoot = "untrusted-root-ca"
    /// The self-signed scenario's certificate itself, for "anchor a self-signed leaf".
    case selfSigned = "self-signed"
    /// The lab's stand-ins for roots that software installed on users' machines with the private
    /// key shipped alongside (badssl.com's known-bad folder), under the same subject names.
    case superfish = "superfish"
    /// The stand-in for Dell's eDellRoot.
    case eDellRoot = "edellroot"
    /// The stand-in for Dell's DSDTestProvider.
    case dsdTestProvider = "dsdtestprovider"
    /// The stand-in for the development root preact-cli shipped ("Acme Co").
    case preactCLI = "preact-cli"
    /// The stand-in for the development root webpack-dev-server shipped (CN=localhost).
    case webpackDevServer = "webpack-dev-server"
    /// The root of the TLS-inspection lessons: what an inspection proxy asks every device behind
    /// it to install, and signs every host's leaf with.
    case inspectionProxyRoot = "inspection-proxy-root"
    /// The root of the Certificate Transparency lessons, which they install as a system root.
    case ctLabRoot = "ct-lab-root"
    /// The root of the distrust lessons, which the lab's date constraint file distrusts for
    /// certificates issued after a cut-off.
    case distrustedRoot = "lab-distrusted-root"
    /// The root of the early-expiry lesson, 30 days from its notAfter when the lab starts.
    case expiringRoot = "lab-expiring-root"

    /// The file name in the lab folder.
    public var fileName: String { "\(rawValue).pem" }
}
