extension ATSConfiguration {
    /// The `NSAppTransportSecurity` key and its dictionary as Info.plist XML, tab-indented as Xcode
    /// writes it, ready to paste into an Info.plist's top-level dictionary. Only the keys that are
    /// set are written; the defaults write an empty dictionary.
    public func infoPlistFragment() -> String {
        var lines = ["<key>NSAppTransportSecurity</key>"]
        lines += dictionaryLines(depth: 0)
        return lines.joined(separator: "\n") + "\n"
    }

    /// A whole Info.plist holding this NSAppTransportSecurity and nothing else.
    public func infoPlistDocument() -> String {
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">"#,
            #"<plist version="1.0">"#, "<dict>", "\t<key>NSAppTransportSecurity</key>",
        ]
        lines += dictionaryLines(depth: 1)
        lines += ["</dict>", "</plist>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private func dictionaryLines(depth: Int) -> [String] {
        var body: [String] = []
        let inner = depth + 1
        func bool(_ key: String, _ value: Bool?) {
            guard let value else { return }
            body += Self.line(inner, "<key>\(key)</key>") + Self.line(inner, value ? "<true/>" : "<false/>")
        }
        bool("NSAllowsArbitraryLoads", allowsArbitraryLoads)
        bool("NSAllowsArbitraryLoadsForMedia", allowsArbitraryLoadsForMedia)
        bool("NSAllowsArbitraryLoadsInWebContent", allowsArbitraryLoadsInWebContent)
        bool("NSAllowsLocalNetworking", allowsLocalNetworking)
        if !exceptionDomains.isEmpty {
            body += Self.line(inner, "<key>NSExceptionDomains</key>") + Self.line(inner, "<dict>")
            for e in exceptionDomains { body += Self.exceptionLines(e, depth: inner + 1) }
            body += Self.line(inner, "</dict>")
        }
        if !pinnedDomains.isEmpty {
            body += Self.line(inner, "<key>NSPinnedDomains</key>") + Self.line(inner, "<dict>")
            for p in pinnedDomains { body += Self.pinnedLines(p, depth: inner + 1) }
            body += Self.line(inner, "</dict>")
        }
        if body.isEmpty { return Self.line(depth, "<dict/>") }
        return Self.line(depth, "<dict>") + body + Self.line(depth, "</dict>")
    }

    private static func exceptionLines(_ e: ATSExceptionDomain, depth: Int) -> [String] {
        var out = line(depth, "<key>\(PropertyList.xmlText(e.domain))</key>") + line(depth, "<dict>")
        let d = depth + 1
        func bool(_ key: String, _ value: Bool?) {
            guard let value else { return }
            out += line(d, "<key>\(key)</key>") + line(d, value ? "<true/>" : "<false/>")
        }
        bool("NSIncludesSubdomains", e.includesSubdomains)
        bool("NSExceptionAllowsInsecureHTTPLoads", e.allowsInsecureHTTPLoads)
        if let v = e.minimumTLSVersionText {
            out +=
                line(d, "<key>NSExceptionMinimumTLSVersion</key>")
                + line(d, "<string>\(PropertyList.xmlText(v))</string>")
        }
        bool("NSExceptionRequiresForwardSecrecy", e.requiresForwardSecrecy)
        bool("NSRequiresCertificateTransparency", e.requiresCertificateTransparency)
        return out + line(depth, "</dict>")
    }

    private static func pinnedLines(_ p: PinnedDomain, depth: Int) -> [String] {
        var out = line(depth, "<key>\(PropertyList.xmlText(p.domain))</key>") + line(depth, "<dict>")
        let d = depth + 1
        if p.includesSubdomains { out += line(d, "<key>NSIncludesSubdomains</key>") + line(d, "<true/>") }
        for (key, identities) in [
            ("NSPinnedLeafIdentities", p.leafIdentities), ("NSPinnedCAIdentities", p.caIdentities),
        ] {
            guard let identities else { continue }
            if identities.isEmpty {
                out += line(d, "<key>\(key)</key>") + line(d, "<array/>")
                continue
            }
            out += line(d, "<key>\(key)</key>") + line(d, "<array>")
            for identity in identities {
                out +=
                    line(d + 1, "<dict>") + line(d + 2, "<key>SPKI-SHA256-BASE64</key>")
                    + line(d + 2, "<string>\(PropertyList.xmlText(identity.text))</string>") + line(d + 1, "</dict>")
            }
            out += line(d, "</array>")
        }
        return out + line(depth, "</dict>")
    }

    private static func line(_ depth: Int, _ text: String) -> [String] {
        [String(repeating: "\t", count: depth) + text]
    }
}

extension PropertyList {
    /// `text` as XML character data: `&`, `<`, `>` and quotes as entities, non-ASCII as numeric
    /// references (the output stays ASCII), and the control characters XML 1.0 cannot carry at
    /// all shown as `\u{HEX}` text. Keys and values may come from a user or a server.
    /// - Parameter text: A key or string value.
    /// - Returns: Text for between tags.
    public static func xmlText(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case _ where scalar.isASCII && (0x20..<0x7F).contains(scalar.value): out.unicodeScalars.append(scalar)
            case "\t", "\n", "\r": out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            case _
            where scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF:
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            default: out += "&#x" + String(scalar.value, radix: 16, uppercase: true) + ";"
            }
        }
        return out
    }
}
