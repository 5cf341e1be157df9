/// URLError codes with Darwin's values (never Foundation's constants on Linux, which differ).
public enum URLErrorNames {
    static let table: [Int: String] = [
        -999: "NSURLErrorCancelled", -1001: "NSURLErrorTimedOut", -1003: "NSURLErrorCannotFindHost",
        -1004: "NSURLErrorCannotConnectToHost", -1005: "NSURLErrorNetworkConnectionLost",
        -1022: "NSURLErrorAppTransportSecurityRequiresSecureConnection",
        -1200: "NSURLErrorSecureConnectionFailed", -1201: "NSURLErrorServerCertificateHasBadDate",
        -1202: "NSURLErrorServerCertificateUntrusted", -1203: "NSURLErrorServerCertificateHasUnknownRoot",
        -1204: "NSURLErrorServerCertificateNotYetValid", -1205: "NSURLErrorClientCertificateRejected",
        -1206: "NSURLErrorClientCertificateRequired",
    ]

    /// The constant's name, or `URLError N` when unknown.
    public static func name(_ code: Int) -> String { table[code] ?? "URLError \(code)" }
}
