import Foundation

/// The id an installation sends with deferred claims, made once and kept (API.md §9): a claim retried with the
/// same id within 10 minutes gets the same answer, so a lost response loses nothing.
public enum InstallID {
    /// The id stored under `key` in `defaults`, made (a random UUID) and stored on first use; two first calls at
    /// once get one id.
    public static func persistent(defaults: UserDefaults = .standard, key: String = "LinkClient.installID") -> String {
        lock.withLock {
            if let id = defaults.string(forKey: key), !id.isEmpty { return id }
            let id = UUID().uuidString
            defaults.set(id, forKey: key)
            #if !canImport(Darwin)
                // swift-corelibs-foundation (Linux, Android) writes defaults to disk only when asked: without this
                // the id was lost at exit, and a claim retried after a restart was `unknown_token`.
                defaults.synchronize()
            #endif
            return id
        }
    }

    private static let lock = NSLock()
}
