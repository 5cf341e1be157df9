import COpenSSL

@testable import TrustCore
@testable import TrustX509

extension SystemTrustStore {
    /// The subject hash computed by OpenSSL (`d2i_X509_NAME` + `X509_NAME_hash_ex`); nil when
    /// OpenSSL cannot decode the name. Kept in the tests to cross-check and time the Swift version.
    static func subjectHashViaOpenSSL(_ name: DistinguishedName) -> String? {
        defer { ERR_clear_error() }
        return name.der.withUnsafeBufferPointer { buf -> String? in
            var p: UnsafePointer<UInt8>? = buf.baseAddress
            guard let x509Name = d2i_X509_NAME(nil, &p, buf.count) else { return nil }
            defer { X509_NAME_free(x509Name) }
            var ok: Int32 = 0
            let h = X509_NAME_hash_ex(x509Name, nil, nil, &ok)
            guard ok == 1 else { return nil }
            return hex32(UInt32(truncatingIfNeeded: h))
        }
    }
}
