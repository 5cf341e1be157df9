import TrustSupport

/// One PEM block: its label and decoded bytes.
public struct PEMBlock: Sendable {
    /// The label, e.g. `CERTIFICATE`.
    public var label: String
    /// The base64-decoded body.
    public var der: [UInt8]
    /// Offset of the `-----BEGIN` line in the input.
    public var offset: Int
}

/// RFC 7468 textual encoding.
public enum PEM {
    /// Whether `bytes` looks like PEM (a BEGIN line somewhere near the start).
    public static func looksLikePEM(_ bytes: [UInt8]) -> Bool {
        ByteSearch.find(Array("-----BEGIN ".utf8), in: bytes, from: 0) != nil
    }

    /// The longest label read (RFC 7468 labels are at most a few words).
    static let maximumLabelLength = 128

    /// Every block in `bytes`, in order. Text outside blocks is ignored, as openssl does.
    public static func blocks(in bytes: [UInt8]) throws(DecodingError) -> [PEMBlock] {
        let begin = Array("-----BEGIN ".utf8)
        let dashes = Array("-----".utf8)
        var out: [PEMBlock] = []
        var i = 0
        while let start = ByteSearch.find(begin, in: bytes, from: i) {
            let labelStart = start + begin.count
            guard let labelEnd = ByteSearch.find(dashes, in: bytes, from: labelStart) else {
                throw DecodingError(offset: start, reason: "unterminated PEM BEGIN line")
            }
            // RFC 7468 labels are a few words; a longer one would be quoted and searched for.
            guard labelEnd - labelStart <= maximumLabelLength else {
                throw DecodingError(
                    offset: labelStart,
                    reason:
                        "PEM label \"\(InputExcerpt.quote(bytes: bytes[labelStart..<labelEnd], limit: 40))\" is longer than \(maximumLabelLength) bytes"
                )
            }
            let label = Array(bytes[labelStart..<labelEnd])
            guard label.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) else {
                throw DecodingError(offset: labelStart, reason: "PEM label is not printable ASCII")
            }
            let end = Array("-----END ".utf8) + label + dashes
            let bodyStart = labelEnd + dashes.count
            guard let endAt = ByteSearch.find(end, in: bytes, from: bodyStart) else {
                throw DecodingError(
                    offset: start,
                    reason: "PEM block \"\(InputExcerpt.quote(bytes: label))\" has no matching END line")
            }
            let body = bytes[bodyStart..<endAt]
            // RFC 1421 headers (Proc-Type etc.) mean an encrypted legacy key: not base64.
            if body.contains(0x3A) {
                throw DecodingError(offset: bodyStart, reason: "PEM block has headers (encrypted legacy format?)")
            }
            guard let der = Base64.decode(body) else {
                throw DecodingError(offset: bodyStart, reason: "PEM body is not valid base64")
            }
            out.append(PEMBlock(label: String(decoding: label, as: UTF8.self), der: der, offset: start))
            i = endAt + end.count
        }
        return out
    }

    /// Encodes `der` as a PEM block with 64-column lines.
    public static func encode(_ der: [UInt8], label: String = "CERTIFICATE") -> String {
        let b64 = Array(Base64.encode(der).utf8)
        var out = "-----BEGIN \(label)-----\n"
        var i = 0
        while i < b64.count {
            out += String(decoding: b64[i..<min(i + 64, b64.count)], as: UTF8.self) + "\n"
            i += 64
        }
        return out + "-----END \(label)-----\n"
    }
}
