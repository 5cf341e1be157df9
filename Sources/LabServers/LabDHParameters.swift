/// Diffie-Hellman parameters a lab server uses for its DHE cipher suites, fixed so that the lab
/// never generates a prime on its start-up path (a 2,048-bit safe prime takes seconds).
public struct LabDHParameters: Hashable, Sendable, CustomStringConvertible {
    /// A short name, e.g. `ffdhe2048`.
    public var name: String
    /// PKCS#3 `DH PARAMETERS` in PEM.
    public var pem: String
    /// What the parameters are and where they come from, for docs/lab.md.
    public var origin: String

    /// The name.
    public var description: String { name }

    /// RFC 7919's ffdhe2048, as OpenSSL's named group writes it: what a correctly configured
    /// server sends today.
    public static let ffdhe2048 = LabDHParameters(
        name: "ffdhe2048",
        pem: """
            -----BEGIN DH PARAMETERS-----
            MIIBCAKCAQEA//////////+t+FRYortKmq/cViAnPTzx2LnFg84tNpWp4TZBFGQz
            +8yTnc4kmz75fS/jY2MMddj2gbICrsRhetPfHtXV/WVhJDP1H18GbtCFY2VVPe0a
            87VXE15/V8k1mE8McODmi3fipona8+/och3xWKE2rec1MKzKT0g6eXq8CrGCsyT7
            YdEIqUuyyOP7uWrat2DX9GgdT0Kj3jlN9K5W7edjcrsZCwenyO4KbXCeAvzhzffi
            7MA0BM0oNC9hkXL+nOmFg/+OTxIy7vKBg8P+OxtMb61zO7X8vC7CIAXFjvGDfRaD
            ssbzSibBsu/6iGtCOGEoXJf//////////wIBAg==
            -----END DH PARAMETERS-----
            """,
        origin: "RFC 7919 ffdhe2048 (openssl genpkey -genparam -algorithm DH -pkeyopt group:ffdhe2048)")

    /// A 1,024-bit safe prime with generator 2, made once with `openssl dhparam 1024` as
    /// badssl.com's certs/Makefile makes its dh1024.pem.
    public static let dh1024 = LabDHParameters(
        name: "dh1024",
        pem: """
            -----BEGIN DH PARAMETERS-----
            MIGHAoGBAPr+0EH+z3Y7wc96gJNbT1AZw1LzyY/bdGHkKraDU+uVGmP5eIz/2X/L
            rEJZAMQ7RHzPv+6J5vGlR6902tKXx1XgLyg/v6mZAzWD4z75iidq3QPQGvww/l3X
            V21kwUHHIgpxGkJCtQY/fCGO3WZLX8IePXEMm4FS64bEY0zlZodPAgEC
            -----END DH PARAMETERS-----
            """,
        origin: "a 1,024-bit safe prime made once with openssl dhparam 1024")

    /// A 512-bit safe prime with generator 2 (`openssl dhparam 512`): the Logjam size.
    public static let dh512 = LabDHParameters(
        name: "dh512",
        pem: """
            -----BEGIN DH PARAMETERS-----
            MEYCQQCe5/Ci/eaLrIDAcw7t8ZvEJIKtjpXt08XZ3pQhlWNQwP+thpyZkLB5sosv
            XFE+kLXxYjYeD7gc16tgcSeldP2HAgEC
            -----END DH PARAMETERS-----
            """,
        origin: "a 512-bit safe prime made once with openssl dhparam 512")

    /// A 480-bit safe prime with generator 2, below what `openssl dhparam` agrees to make: made
    /// with `openssl prime -generate -bits 480 -safe` and encoded as PKCS#3 by hand.
    public static let dh480 = LabDHParameters(
        name: "dh480",
        pem: """
            -----BEGIN DH PARAMETERS-----
            MEICPQDNbLb4YJIy+WZisVOTgfVBahGrrUw+HE4fHCZCRvUOVCIb/A6PicuclUzge/TbiJaDAIVj
            v4Ho00fZpnsCAQI=
            -----END DH PARAMETERS-----
            """,
        origin: "a 480-bit safe prime made once with openssl prime -generate -bits 480 -safe")

    /// badssl.com's certs/src/dhparam/dh-composite.pem: a 2,047-bit modulus that is not prime, so
    /// the discrete logarithm is easy in its factors' groups (generator 5).
    public static let composite = LabDHParameters(
        name: "dh-composite",
        pem: """
            -----BEGIN DH PARAMETERS-----
            MIIBBwKCAQBed4vGnUmyHOfbuX0tMqo0gVsdd30AOBYfqQppFv3UycvnmSdu1Q95
            C/gGHCoK2L+DqRHf4OxuiPz/JpqAJtoBVAbqqf1XOALWliZIo3hJGZxrTUuZPawa
            iEmzENZRFFG3IJyQ5/9g9+O2McQfYH6NaAuV8+SA7erVyx0sDjitmgW6fAxeFTVQ
            oEeZiYKoyCfLhPFdT5fl4ug7MtXnNEpPjSBovMD5Xs/ZlJ3FDfsV69Swoz7dS+UK
            JlCrv7Obf+tlJCMhFJf3A2GNP+RzIJddSn2JbBaTMECgpwgBuKmqkKL6LiDzNML/
            rvO1LFfU+tV4bbn+RBiu+OCC2m2ZTgvHAgEF
            -----END DH PARAMETERS-----
            """,
        origin: "badssl.com certs/src/dhparam/dh-composite.pem (a composite 2,047-bit modulus)")

    /// badssl.com's certs/src/dhparam/dh-small-subgroup.pem: a 2,048-bit prime whose generator
    /// lies in a small subgroup, so the shared secret takes few values.
    public static let smallSubgroup = LabDHParameters(
        name: "dh-small-subgroup",
        pem: """
            -----BEGIN DH PARAMETERS-----
            MIICCgKCAQEA////////////////////////////////////////////////////
            ////////////////////////////////////////////////////////////////
            ////////////////////////////////////////////////////////////////
            ////////////////////////////////////////////////////////////////
            ////////////////////////////////////////////////////////////////
            ///////////////////////////wAAAAHQKCAQEAu6kFl4Jni6wu89MOPQwhFQdz
            k4SsloDJnHPB7SBXRjZHIkqVjTCGqO/PA4LqerBfXtgnh33YVaefTtYLQGC0bLqi
            19PeEv3n8PaTB+RqMisy54p6mhBQZ2VxkiPKphpljueg1VPTN6GN7f/P2TCFXCE3
            VRS3roLvvQ4CikZMyO8xVK58mU5YHv7u8A4b/rilq4m+Hr5upS5zvlKIU1iqi47d
            0oyrrY9X9AVT2KtmHUdIhwMKPMWpgGGG/si/jrzPI2jAcuVDGRYx8D1btqhzFWQZ
            CvJdDaVVA6JSw0XCp3zq71uzuU4vrLBRskZ/vFVw1FHmUSyR4JcDsu+YLzoT+A==
            -----END DH PARAMETERS-----
            """,
        origin: "badssl.com certs/src/dhparam/dh-small-subgroup.pem (a generator of a small subgroup)")
}
