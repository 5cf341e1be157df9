/// The scheme of the URL an app loads: ATS refuses cleartext `http` unless allowed.
public enum URLScheme: String, Hashable, Sendable, CaseIterable {
    /// `https://`.
    case https
    /// `http://` (cleartext; refused by ATS with URLError -1022 unless an exception allows it).
    case http
}
