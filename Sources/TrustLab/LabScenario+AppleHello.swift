import AppleHello
import HelloFront
import TrustBuilder

extension LabScenarioGroup {
    /// Servers that every client reaches but iOS 26, whose post-quantum ClientHello is larger.
    public static let appleHello = LabScenarioGroup(
        id: "ios26-hello", title: "iOS 26's post-quantum ClientHello", firstPortOffset: 270)
}

extension LabScenario {
    /// A Library Test CA leaf for `NAME.trustx.test` (reached with `--connect-to`, so the hello
    /// carries a server name as a device's does) behind `front`: its chain is trusted by every
    /// client that reaches it, and trustx's own handshake does; what iOS 26's hello meets is the
    /// lesson.
    static func appleHelloLesson(
        _ name: String, _ lesson: String, front: FrontRule, answer: AppleHelloReport.Outcome, device: Int,
        networkOnly: String
    ) -> LabScenario {
        var s = LabScenario(
            group: .appleHello, name: name, lesson: lesson, host: "\(name).trustx.test", anchor: .libraryTestCA,
            expectation: .trusted,
            rule:
                "a Library Test CA leaf naming the host, trusted once its CA is the app's anchor (docs/steps.md#anchor); the handshake is what fails, before any evaluation (docs/connecting.md, \"The second hello\")",
            networkOnly: networkOnly,
            variations: [
                LabVariation(
                    [.noScenarioAnchor], .rejectedByDefault(-25318),
                    "without the anchor only system roots are trusted, whoever reaches the server")
            ], serviceProtocol: .https,
            chain: LabChain { p, s throws(BuilderError) in
                LabServedChain(try p.lab.namedLeaf(host: s.host, key: try KeyPair.generate(.ecP256)))
            })
        s.front = front
        s.appleHello = answer
        s.deviceURLError = device
        return s
    }

    /// The group: a middlebox that resets large hellos, one that drops split ones, and a server
    /// that asks for x25519 though the hello carried its share.
    static let appleHello: [LabScenario] = [
        appleHelloLesson(
            "large-hello-reset",
            "A load balancer that resets any ClientHello over 1,024 bytes: curl, OpenSSL and older iPhones pass, iOS 26's hello of about 1,520 bytes (X25519MLKEM768's 1,216-byte share) is reset.",
            front: .dropsHellos(over: 1024, by: .reset), answer: .reset, device: -1005,
            networkOnly:
                "the ClientHello's size: iOS 26's is reset (URLError -1005 on a device), trustx's own passes; the apple hello line says reset"
        ),
        appleHelloLesson(
            "split-hello-dropped",
            "A firewall that reads the ClientHello from the first TCP segment only: a hello over 1,460 bytes arrives in two segments on a 1,500-byte path, and iOS 26's is dropped without a word.",
            front: .dropsSplitHellos(by: .silence), answer: .timedOut, device: -1001,
            networkOnly:
                "whether the ClientHello fits one 1,460-byte segment: iOS 26's does not and is dropped, so the device waits and times out (URLError -1001); the apple hello line says timed-out"
        ),
        appleHelloLesson(
            "hrr-for-x25519",
            "A server that reads only the first key share and, finding X25519MLKEM768 there, asks for x25519 with a HelloRetryRequest though the hello carried an x25519 share: iOS 26 aborts, clients offering x25519 first pass.",
            front: .retriesX25519UnlessFirst, answer: .helloRetryRequest, device: -1200,
            networkOnly:
                "the key shares' order: a HelloRetryRequest for a group whose share was sent makes the client abort with illegal_parameter (RFC 8446 4.2.8; URLError -1200 on a device); the apple hello line says so"
        ),
    ]
}
