import ATSModel
import TrustCore
import XCTest

@testable import TLSProbe

/// Target, option and proxy parsing: expected values follow RFC 3986 authority syntax, RFC 6066
/// section 3 (no SNI for IP literals) and curl's no_proxy rules.
final class TargetTests: XCTestCase {
    func parse(_ s: String) throws -> ProbeTarget { try ProbeTarget.parse(s) }

    func testHostForms() throws {
        XCTAssertEqual(try parse("example.com").host, "example.com")
        XCTAssertEqual(try parse("example.com").port, 443)
        XCTAssertEqual(try parse("example.com:8443").port, 8443)
        let url = try parse("https://user:pw@example.com:9443/a/b?q=1")
        XCTAssertEqual(url.host, "example.com")
        XCTAssertEqual(url.port, 9443)
        XCTAssertEqual(url.path, "/a/b?q=1")
        XCTAssertEqual(try parse("https://example.com").port, 443)
        XCTAssertEqual(try parse("imaps://mail.example.com").port, 993)
        XCTAssertEqual(try parse("http://example.com").port, 80)
        let v6 = try parse("[::1]:4433")
        XCTAssertEqual(v6.host, "::1")
        XCTAssertEqual(v6.port, 4433)
        XCTAssertEqual(try parse("::1").port, 443)
        XCTAssertEqual(try parse("https://[2001:db8::1]/x").host, "2001:db8::1")
        XCTAssertEqual(try parse("127.0.0.1:1").port, 1)
        XCTAssertEqual(try parse("  example.com  ").host, "example.com")
    }

    func testRejectedTargets() {
        for bad in [
            "", ":443", "example.com:0", "example.com:70000", "example.com:x", "exa mple.com", "[::1", "[nope]:1",
            "gopher://example.com", "2001:db8::1:443x", "a\r\nb",
        ] {
            XCTAssertThrowsError(try ProbeTarget.parse(bad), bad) { e in
                let e = e as! ProbeError
                XCTAssertEqual(e.kind, .invalidTarget, bad)
                XCTAssertNil(e.urlError, bad)
            }
        }
    }

    func testSNIRules() throws {
        XCTAssertEqual(try parse("example.com").serverName, "example.com")
        XCTAssertNil(try parse("127.0.0.1").serverName, "RFC 6066: no literal IPv4 in SNI")
        XCTAssertNil(try parse("[::1]:443").serverName, "RFC 6066: no literal IPv6 in SNI")
        var t = try parse("example.com")
        t.sni = .none
        XCTAssertNil(t.serverName)
        t.sni = .name("other.test")
        XCTAssertEqual(t.serverName, "other.test")
        t.sni = .name("10.0.0.1")
        XCTAssertNil(t.serverName)
        t = try parse("example.com:8443")
        t.connectTo = try Endpoint.parse("127.0.0.1:4433", defaultPort: t.port)
        XCTAssertEqual(t.dialEndpoint, Endpoint(host: "127.0.0.1", port: 4433))
        XCTAssertEqual(t.serverName, "example.com", "connect-to keeps the name for SNI")
        XCTAssertEqual(try Endpoint.parse("[::1]", defaultPort: 8443).description, "[::1]:8443")
    }

    func testVersions() {
        XCTAssertEqual(TLSVersion("1.2"), .tls1_2)
        XCTAssertEqual(TLSVersion("TLSv1.3"), .tls1_3)
        XCTAssertEqual(TLSVersion("tls1.0"), .tls1_0)
        XCTAssertNil(TLSVersion("1.4"))
        XCTAssertEqual(ProbeOptions().minimumVersion, .tls1_2, "URLSession's default minimum")
        XCTAssertEqual(ProbeOptions().timeout, .seconds(10))
        XCTAssertEqual(ProbeOptions().effectiveALPN, ["h2", "http/1.1"])
        XCTAssertEqual(ProbeOptions(startTLS: .smtp).effectiveALPN, [])
    }

    func testProxyParsing() throws {
        let p = try ProxyAddress.parse("http://u:p@proxy.local:3128/")
        XCTAssertEqual(p.endpoint, Endpoint(host: "proxy.local", port: 3128))
        XCTAssertEqual(p.credentials, "u:p")
        XCTAssertEqual(p.description, "http://proxy.local:3128")
        XCTAssertEqual(try ProxyAddress.parse("proxy.local").endpoint.port, 1080)
        XCTAssertThrowsError(try ProxyAddress.parse("https://proxy.local:443"))
        XCTAssertTrue(Environment.noProxyMatches(host: "a.example.com", list: "localhost, .example.com"))
        XCTAssertTrue(Environment.noProxyMatches(host: "example.com", list: "example.com"))
        XCTAssertFalse(Environment.noProxyMatches(host: "badexample.com", list: "example.com"))
        XCTAssertTrue(Environment.noProxyMatches(host: "x", list: "*"))
    }

    func testInvalidOptionsFailBeforeConnecting() throws {
        let t = try parse("127.0.0.1:9")
        XCTAssertThrowsError(
            try Probe.handshake(with: t, options: ProbeOptions(minimumVersion: .tls1_3, maximumVersion: .tls1_2))
        ) {
            XCTAssertEqual(($0 as! ProbeError).kind, .invalidOption)
            XCTAssertNil(($0 as! ProbeError).urlError)
        }
        let missing = ProbeOptions(clientIdentity: .pkcs12(path: "/nonexistent/client.p12", password: "x"))
        XCTAssertThrowsError(try Probe.handshake(with: t, options: missing)) {
            XCTAssertEqual(($0 as! ProbeError).kind, .invalidOption)
        }
    }

    func testAlertNames() {
        XCTAssertEqual(TLSAlert(code: 116).description, "certificate_required (116)")
        XCTAssertEqual(TLSAlert(code: 40).name, "handshake_failure")
        XCTAssertEqual(TLSAlert(code: 250).name, "alert 250")
    }
}
