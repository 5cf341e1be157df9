import Foundation

/// Test PKIs made by the openssl CLI, so expected values never come from trustx's own builder.
enum OpenSSLPKI {
    /// Root `ca.pem`, intermediate `int.pem` and `leaf.pem` for 127.0.0.1 (serverAuth, IP SAN)
    /// issued by the intermediate (or by the root when `leafIssuedByRoot`), with
    /// `leafExtensions` added to the leaf; P-256 keys beside each (`ca.key`, `int.key`, `leaf.key`).
    static func makeThreeLevels(
        in dir: URL, root: String, intermediate: String, leafExtensions: String, leafIssuedByRoot: Bool = false
    ) throws {
        try makeCAs(in: dir, root: root, intermediate: intermediate)
        try issueLeaf(in: dir, leafExtensions: leafExtensions, leafIssuedByRoot: leafIssuedByRoot)
    }

    /// The files of the CAs `makeCAs` writes, which `issueLeaf` needs beside it.
    static let caFiles = ["ca.pem", "ca.key", "int.pem", "int.key"]

    /// Root `ca.pem` and intermediate `int.pem` with their P-256 keys, as `makeThreeLevels`
    /// makes them.
    static func makeCAs(in dir: URL, root: String, intermediate: String) throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(
            ["req", "-x509"] + ec + [
                "-keyout", "ca.key", "-out", "ca.pem", "-days", "30", "-subj", "/CN=\(root)",
                "-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign",
            ], in: dir)
        try Shell.openssl(
            ["req"] + ec + ["-keyout", "int.key", "-out", "int.csr", "-subj", "/CN=\(intermediate)"], in: dir)
        try "basicConstraints=critical,CA:TRUE\nkeyUsage=critical,keyCertSign,cRLSign\n".write(
            to: dir.appendingPathComponent("int.ext"), atomically: true, encoding: .utf8)
        try Shell.openssl(
            [
                "x509", "-req", "-in", "int.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-set_serial", "2",
                "-days", "30", "-extfile", "int.ext", "-out", "int.pem",
            ], in: dir)
    }

    /// `leaf.pem` for 127.0.0.1 with `leafExtensions`, issued by the intermediate (or the root)
    /// whose files `makeCAs` wrote in `dir`.
    static func issueLeaf(in dir: URL, leafExtensions: String, leafIssuedByRoot: Bool = false) throws {
        let ec = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes"]
        try Shell.openssl(
            ["req"] + ec + ["-keyout", "leaf.key", "-out", "leaf.csr", "-subj", "/CN=127.0.0.1"], in: dir)
        try """
        basicConstraints=CA:FALSE
        keyUsage=critical,digitalSignature
        extendedKeyUsage=serverAuth
        subjectAltName=IP:127.0.0.1
        \(leafExtensions)

        """.write(to: dir.appendingPathComponent("leaf.ext"), atomically: true, encoding: .utf8)
        let issuer = leafIssuedByRoot ? "ca" : "int"
        try Shell.openssl(
            [
                "x509", "-req", "-in", "leaf.csr", "-CA", "\(issuer).pem", "-CAkey", "\(issuer).key",
                "-set_serial", "3", "-days", "30", "-extfile", "leaf.ext", "-out", "leaf.pem",
            ], in: dir)
    }
}
