import ATSModel
import SuiteFixtures
import Testing
import TrustCore

@testable import TLSProbe

/// Target, option and proxy parsing: expected values follow RFC 3986 authority syntax, RFC 6066
/// section 3 (no SNI for IP literals) and curl's no_proxy rules.
@Suite(.serialized, .onTestThreads) final class TargetTests {
    func parse(_ s: String) throws -> ProbeTarget { try ProbeTarget.parse(s) }

    @Test func testHostForms() throws {
        #expect((try parse("example.com").host) == "example.com")
        #expect((try parse("example.com").port) == 443)
        #expect((try parse("example.com:8443").port) == 8443)
        let url = try parse("https://user:pw@example.com:9443/a/b?q=1")
        #expect(url.host == "example.com")
        #expect(url.port == 9443)
        #expect(url.path == "/a/b?q=1")
        #expect((try parse("https://example.com").port) == 443)
        #expect((try parse("imaps://mail.example.com").port) == 993)
        #expect((try parse("http://example.com").port) == 80)
        let v6 = try parse("[::1]:4433")
        #expect(v6.host == "::1")
        #expect(v6.port == 4433)
        #expect((try parse("::1").port) == 443)
        #expect((try parse("https://[2001:db8::1]/x").host) == "2001:db8::1")
        #expect((try parse("127.0.0.1:1").port) == 1)
        #expect((try parse("  example.com  ").host) == "example.com")
    }

    @Test func testRejectedTargets() {
        for bad in [
            "", ":443", "example.com:0", "example.com:70000", "example.com:x", "exa mple.com", "[::1", "[nope]:1",
            "gopher://example.com", "2001:db8::1:443x", "a\r\nb",
        ] {
            if let e = #expect(throws: (any Error).self, "\(bad)", performing: { try ProbeTarget.parse(bad) }) {
                let e = e as! ProbeError
                #expect(e.kind == .invalidTarget, "\(bad)")
                #expect(e.urlError == nil, "\(bad)")
            }
        }
    }

    @Test func testSNIRules() throws {
        #expect((try parse("example.com").serverName) == "example.com")
        #expect((try parse("127.0.0.1").serverName) == nil, "RFC 6066: no literal IPv4 in SNI")
        #expect((try parse("[::1]:443").serverName) == nil, "RFC 6066: no literal IPv6 in SNI")
        var t = try parse("example.com")
        t.sni = .none
        #expect(t.serverName == nil)
        t.sni = .name("other.test")
        #expect(t.serverName == "other.test")
        t.sni = .name("10.0.0.1")
        #expect(t.serverName == nil)
        t = try parse("example.com:8443")
        t.connectTo = try Endpoint.parse("127.0.0.1:4433", defaultPort: t.port)
        #expect(t.dialEndpoint == (Endpoint(host: "127.0.0.1", port: 4433)))
        #expect(t.serverName == "example.com", "connect-to keeps the name for SNI")
        #expect((try Endpoint.parse("[::1]", defaultPort: 8443).description) == "[::1]:8443")
    }

    @Test func testVersions() {
        #expect(TLSVersion("1.2") == .tls1_2)
        #expect(TLSVersion("TLSv1.3") == .tls1_3)
        #expect(TLSVersion("tls1.0") == .tls1_0)
        #expect(TLSVersion("1.4") == nil)
        #expect((ProbeOptions().minimumVersion) == .tls1_2, "URLSession's default minimum")
        #expect((ProbeOptions().timeout) == .seconds(10))
        #expect((ProbeOptions().effectiveALPN) == ["h2", "http/1.1"])
        #expect((ProbeOptions(startTLS: .smtp).effectiveALPN) == [])
    }

    @Test func testProxyParsing() throws {
        let p = try ProxyAddress.parse("http://u:p@proxy.local:3128/")
        #expect(p.endpoint == (Endpoint(host: "proxy.local", port: 3128)))
        #expect(p.credentials == "u:p")
        #expect(p.description == "http://proxy.local:3128")
        #expect((try ProxyAddress.parse("proxy.local").endpoint.port) == 1080)
        #expect(throws: (any Error).self, performing: { try ProxyAddress.parse("https://proxy.local:443") })
        #expect(Environment.noProxyMatches(host: "a.example.com", list: "localhost, .example.com"))
        #expect(Environment.noProxyMatches(host: "example.com", list: "example.com"))
        #expect(!(Environment.noProxyMatches(host: "badexample.com", list: "example.com")))
        #expect(Environment.noProxyMatches(host: "x", list: "*"))
    }

    @Test func testInvalidOptionsFailBeforeConnecting() throws {
        let t = try parse("127.0.0.1:9")
        if let thrown = #expect(
            throws: (any Error).self,
            performing: {
                try Probe.handshake(with: t, options: ProbeOptions(minimumVersion: .tls1_3, maximumVersion: .tls1_2))
            })
        {
            #expect(((thrown as! ProbeError).kind) == .invalidOption)
            #expect(((thrown as! ProbeError).urlError) == nil)
        }
        let missing = ProbeOptions(clientIdentity: .pkcs12(path: "/nonexistent/client.p12", password: "x"))
        if let thrown = #expect(
            throws: (any Error).self, performing: { try Probe.handshake(with: t, options: missing) })
        {
            #expect(((thrown as! ProbeError).kind) == .invalidOption)
        }
    }

    @Test func testAlertNames() {
        #expect((TLSAlert(code: 116).description) == "certificate_required (116)")
        #expect((TLSAlert(code: 40).name) == "handshake_failure")
        #expect((TLSAlert(code: 250).name) == "alert 250")
    }
}
