import TrustX509

/// The explorer's store switch (`s`): which roots are the system's for the current toggles.
extension AppState {
    /// This machine's OpenSSL store, made once per process: its caches then serve every
    /// evaluation after a switch back to it.
    package static let machineStore = SystemTrustStore.fromEnvironment()

    /// The store `t` names: the session's own when it is that one (it keeps its caches), Apple's
    /// shared store, or this machine's; nil when the session has no system store at all.
    func store(for t: Toggles) -> (any IssuerSource)? {
        guard let systemStore else { return nil }
        if systemStore.storeName == t.store.argument { return systemStore }
        switch t.store {
        case .apple: return AppleRootStore.shared
        case .openssl: return Self.machineStore
        case .path: return t.store.makeStore()
        }
    }

    /// The store after `s`: Apple's, this machine's, then the session's PATH when it started with one.
    var nextStore: TrustStoreChoice {
        var order: [TrustStoreChoice] = [.apple, .openssl]
        if case .path = startToggles.store { order.append(startToggles.store) }
        let i = order.firstIndex(of: toggles.store) ?? 0
        return order[(i + 1) % order.count]
    }

    /// `roots apple 55349.0.11` for the settings line: the store and its version.
    package var storeWords: String {
        guard let store = store(for: toggles) else { return "no system roots" }
        switch toggles.store {
        case .apple:
            return "roots apple \(store.storeVersion.replacing("security_certificates-", with: ""))"
        case .openssl: return "roots openssl"
        case .path(let path): return "roots \(path)"
        }
    }
}
