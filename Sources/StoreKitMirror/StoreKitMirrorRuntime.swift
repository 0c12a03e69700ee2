#if !canImport(StoreKit)
import Foundation

/// StoreKit 2 as Apple declares it, for Linux, where StoreKit does not exist.
///
/// Every declaration EntitleKit's StoreKit 2 adapter (`StoreKitStore`) uses is written here from Apple's
/// documentation with Apple's names, argument labels, types, `throws`, `async`, isolation (`@MainActor`
/// where Apple has it), `Sendable` conformances and availability, each citing the page it mirrors
/// (docs/storekit-mirror.md lists them). The adapter is one source file: it imports StoreKit on Apple
/// platforms and this module elsewhere, so what compiles here is what an app compiles.
///
/// What StoreKit does on a device — asking the App Store, showing sheets, signing transactions — a
/// ``StoreKitMirrorBackend`` does here: in Entitle's tests, the local App Store, which signs every
/// transaction with a certificate chain shaped like Apple's, so a purchase returns the JWS it signed and
/// the server verifies it as it would Apple's. Declarations that are the mirror's own (the backend, the
/// initialisers StoreKit keeps private) are marked so and are not part of StoreKit.
public enum StoreKitMirrorRuntime {
    private static let lock = NSLock()
    nonisolated(unsafe) private static var installed: (any StoreKitMirrorBackend)?

    /// The mirror's own: makes `backend` answer every StoreKit call from now on (a device's App Store).
    public static func install(_ backend: any StoreKitMirrorBackend) {
        lock.lock()
        defer { lock.unlock() }
        installed = backend
    }

    /// The mirror's own: no backend answers from now on (StoreKit calls fail with `StoreKitError.unknown`).
    public static func uninstall() {
        lock.lock()
        defer { lock.unlock() }
        installed = nil
    }

    /// The installed backend, or `StoreKitError.unknown` when none is (StoreKit without an App Store).
    static func backend() throws -> any StoreKitMirrorBackend {
        lock.lock()
        defer { lock.unlock() }
        guard let installed else { throw StoreKitError.unknown }
        return installed
    }

    static var backendIfInstalled: (any StoreKitMirrorBackend)? {
        lock.lock()
        defer { lock.unlock() }
        return installed
    }
}
#endif
