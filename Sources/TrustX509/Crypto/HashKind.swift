internal import COpenSSL

/// The hash functions certificate signatures use.
public enum HashKind: String, Sendable {
    case md5, sha1, sha224, sha256, sha384, sha512

    var nid: Int32 {
        switch self {
        case .md5: NID_md5
        case .sha1: NID_sha1
        case .sha224: NID_sha224
        case .sha256: NID_sha256
        case .sha384: NID_sha384
        case .sha512: NID_sha512
        }
    }

    package var evp: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha224: EVP_sha224()
        case .sha256: EVP_sha256()
        case .sha384: EVP_sha384()
        case .sha512: EVP_sha512()
        }
    }

    init?(oid: OID) {
        switch oid {
        case .sha1: self = .sha1
        case .sha224: self = .sha224
        case .sha256: self = .sha256
        case .sha384: self = .sha384
        case .sha512: self = .sha512
        default: return nil
        }
    }
}
