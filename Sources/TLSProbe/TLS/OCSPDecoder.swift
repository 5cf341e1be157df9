internal import COpenSSL
import TrustCore
import TrustSupport

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Reads a stapled OCSP response's status with OpenSSL's OCSP API. The response's signature is
/// not checked here: that is the evaluator's business, with the issuer it chooses.
enum OCSPDecoder {
    static func decode(_ der: [UInt8], leaf: OpaquePointer?) -> OCSPStaple {
        var staple = OCSPStaple(
            responseStatus: "malformed", certificateStatus: nil, revocationTime: nil,
            thisUpdate: nil, nextUpdate: nil, der: der)
        defer { ERR_clear_error() }
        let response: OpaquePointer? = der.withUnsafeBufferPointer { buf in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            return d2i_OCSP_RESPONSE(nil, &p, buf.count)
        }
        guard let response else { return staple }
        defer { OCSP_RESPONSE_free(response) }
        let status = OCSP_response_status(response)
        staple.responseStatus =
            switch status {
            case OCSP_RESPONSE_STATUS_SUCCESSFUL: "successful"
            case OCSP_RESPONSE_STATUS_MALFORMEDREQUEST: "malformedRequest"
            case OCSP_RESPONSE_STATUS_INTERNALERROR: "internalError"
            case OCSP_RESPONSE_STATUS_TRYLATER: "tryLater"
            case OCSP_RESPONSE_STATUS_SIGREQUIRED: "sigRequired"
            case OCSP_RESPONSE_STATUS_UNAUTHORIZED: "unauthorized"
            default: "status \(status)"
            }
        guard status == OCSP_RESPONSE_STATUS_SUCCESSFUL, let basic = OCSP_response_get1_basic(response) else {
            return staple
        }
        defer { OCSP_BASICRESP_free(basic) }
        let leafSerial = leaf.flatMap { X509_get0_serialNumber($0) }
        let count = OCSP_resp_count(basic)
        for i in 0..<count {
            guard let single = OCSP_resp_get0(basic, i) else { continue }
            // Match the leaf by serial; a response with a single entry and no leaf to compare
            // against is taken as the leaf's.
            if let leafSerial {
                guard let id = OCSP_SINGLERESP_get0_id(single) else { continue }
                var serial: UnsafeMutablePointer<ASN1_INTEGER>?
                guard OCSP_id_get0_info(nil, nil, nil, &serial, id) == 1, let serial,
                    ASN1_INTEGER_cmp(serial, leafSerial) == 0
                else { continue }
            } else if count != 1 {
                break
            }
            var reason: Int32 = 0
            var revoked: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            let s = OCSP_single_get0_status(single, &reason, &revoked, &thisUpdate, &nextUpdate)
            staple.certificateStatus =
                switch s {
                case V_OCSP_CERTSTATUS_GOOD: "good"
                case V_OCSP_CERTSTATUS_REVOKED: "revoked"
                default: "unknown"
                }
            staple.revocationTime = timestamp(revoked)
            staple.thisUpdate = timestamp(thisUpdate)
            staple.nextUpdate = timestamp(nextUpdate)
            break
        }
        return staple
    }

    static func timestamp(_ t: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?) -> Timestamp? {
        guard let t else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(t, &parts) == 1 else { return nil }
        return Timestamp(secondsSinceEpoch: Int64(timegm(&parts)))
    }
}
