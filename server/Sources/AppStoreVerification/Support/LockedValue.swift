import Foundation

/// A value behind a lock, for the verifier's caches: available on every platform the SDK supports
/// (iOS 17, macOS 14), where `Synchronization.Mutex` is not.
final class LockedValue<Value: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) {
        self.value = value
    }

    func withLock<T>(_ body: (inout Value) throws -> T) rethrows -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
