import TrustSupport

/// OCSP requests (RFC 6960 4.1.1) as a client sends them to a responder.
public enum OCSPRequest {
    /// Writes the SHA-1 CertID of `certificate` issued by `issuer` (RFC 6960 4.1.1): what a
    /// request asks about and a response answers for.
    package static func writeCertID(of certificate: Certificate, issuer: Certificate, _ w: inout DERWriter) {
        w.sequence { w in
            w.sequence { w in
                w.oid(OCSPResponse.sha1)
                w.null()
            }
            w.octetString(Digest.sha1(issuer.subject.der))
            w.octetString(Digest.sha1(issuer.publicKey.keyBytes))
            w.integer(magnitude: certificate.serialNumber)
        }
    }

    /// The DER of an unsigned request about `certificate` issued by `issuer`, with a SHA-1
    /// CertID and no nonce: the form responders answer from caches, and what
    /// `openssl ocsp -no_nonce` sends.
    public static func der(certificate: Certificate, issuer: Certificate) -> [UInt8] {
        DERWriter.encode { w in
            w.sequence { w in
                w.sequence { w in
                    w.sequence { w in
                        w.sequence { w in
                            OCSPRequest.writeCertID(of: certificate, issuer: issuer, &w)
                        }
                    }
                }
            }
        }
    }

    /// The GET URL for `request` at responder `base` (RFC 6960 A.1: base64, then URL-encoded).
    public static func getURL(base: String, request: [UInt8]) -> String {
        var encoded = ""
        for ch in Base64.encode(request) {
            switch ch {
            case "+": encoded += "%2B"
            case "/": encoded += "%2F"
            case "=": encoded += "%3D"
            default: encoded.append(ch)
            }
        }
        return (base.hasSuffix("/") ? base : base + "/") + encoded
    }
}
