import TrustCore

extension LabScenarioGroup {
    /// badssl.com's client-certificate cases (its domains/client folder); `client` itself is the
    /// lab's mtls-required lesson.
    public static let badsslClient = LabScenarioGroup(
        id: "badssl-client", title: "badssl.com: client", firstPortOffset: 140)
}

extension LabScenario {
    /// The client group.
    static let badsslClient: [LabScenario] = [
        badsslCase(
            "client-cert-missing", group: .badsslClient,
            "A server that requires a client certificate from a CA no learner has an identity from.",
            LabExpectation(trusted: false, osstatus: 0, urlError: -1206),
            rule:
                "URLError clientCertificateRequired (-1206); the server's own chain is trusted (docs/steps.md#urlerror)",
            networkOnly:
                "the client-certificate request: the served chain is trusted; the handshake fails without an identity the server accepts",
            variations: [
                LabVariation(
                    [.clientIdentity], LabExpectation(trusted: false, osstatus: 0, urlError: -1205),
                    "the learner's identity is from another CA: the server refuses it (alert unknown_ca), URLError -1205"
                )
            ],
            serverTLS: LabServerTLS(.tls1_2, .tls1_3, requiredClientCA: .unused))
    ]
}
