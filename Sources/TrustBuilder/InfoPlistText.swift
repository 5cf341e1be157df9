/// Info.plist text for tests of the ATS decoder and the lint: a document around a body, and the
/// pieces of NSAppTransportSecurity written as XML.
public enum InfoPlistText {
    /// An Info.plist whose top-level dictionary holds `body` (and a bundle name, as real ones do).
    public static func document(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        <key>CFBundleName</key><string>App</string>
        \(body)
        </dict>
        </plist>

        """
    }

    /// An Info.plist whose NSAppTransportSecurity dictionary holds `ats`.
    public static func ats(_ ats: String) -> String {
        document("<key>NSAppTransportSecurity</key><dict>\(ats)</dict>")
    }

    /// A pinned-identity array under `key` with one SPKI-SHA256-BASE64 entry per pin.
    public static func pins(_ pins: [String], key: String = "NSPinnedCAIdentities") -> String {
        "<key>\(key)</key><array>"
            + pins.map { "<dict><key>SPKI-SHA256-BASE64</key><string>\($0)</string></dict>" }.joined() + "</array>"
    }

    /// NSPinnedDomains with one domain holding `entry`.
    public static func pinned(_ entry: String, domain: String = "api.example.com") -> String {
        "<key>NSPinnedDomains</key><dict><key>\(domain)</key><dict>\(entry)</dict></dict>"
    }

    /// NSExceptionDomains with one domain holding `entry`.
    public static func exception(_ entry: String, domain: String = "legacy.example.com") -> String {
        "<key>NSExceptionDomains</key><dict><key>\(domain)</key><dict>\(entry)</dict></dict>"
    }
}
