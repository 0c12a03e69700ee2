import NIOConcurrencyHelpers

/// Keys this process already wrote something idempotent for (a registration, a link), so it writes each
/// once instead of asking the database every time. Forgotten all at once past `capacity`, so memory stays
/// bounded; forgetting only costs a repeated, harmless write.
struct SeenOnce<Key: Hashable & Sendable>: Sendable {
    private let seen = NIOLockedValueBox<Set<Key>>([])
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    /// Whether `key` is new to this process; marks it.
    func isNew(_ key: Key) -> Bool {
        seen.withLockedValue { seen in
            if seen.count >= capacity, !seen.contains(key) { seen.removeAll(keepingCapacity: true) }
            return seen.insert(key).inserted
        }
    }

    /// Forgets `key` (its write failed), so the next time tries again.
    func forget(_ key: Key) {
        _ = seen.withLockedValue { $0.remove(key) }
    }
}
