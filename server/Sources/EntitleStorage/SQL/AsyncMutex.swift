import Foundation
import NIOConcurrencyHelpers

/// Mutual exclusion across suspension points: one holder at a time, waiters resumed in order.
final class AsyncMutex: Sendable {
    private let state = NIOLockedValueBox<(held: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    func withLock<T: Sendable>(_ body: @Sendable () async throws(StorageError) -> T) async throws(StorageError) -> T {
        await acquire()
        do {
            let result = try await body()
            release()
            return result
        } catch {
            release()
            throw error
        }
    }

    private func acquire() async {
        // Free: taken at once, with no suspension.
        let taken = state.withLockedValue { state -> Bool in
            guard !state.held else { return false }
            state.held = true
            return true
        }
        if taken { return }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let acquired = state.withLockedValue { state -> Bool in
                if state.held {
                    state.waiters.append(continuation)
                    return false
                }
                state.held = true
                return true
            }
            if acquired { continuation.resume() }
        }
    }

    private func release() {
        let next = state.withLockedValue { state -> CheckedContinuation<Void, Never>? in
            if state.waiters.isEmpty {
                state.held = false
                return nil
            }
            return state.waiters.removeFirst()
        }
        next?.resume()
    }
}
