import Foundation

/// Validated chains, keyed by the exact bytes of the JWS header that carries them (the header holds
/// `alg` and every x5c certificate, so equal bytes mean the same chain).
///
/// Apple signs with a few long-lived certificates, so nearly every lookup hits and a verification
/// costs one P-256 signature check. Bounded: the least recently used entry goes first. Only the
/// lookup holds the lock; signature checks run outside it, so verification scales with cores.
final class ChainCache: Sendable {
    private struct Entry {
        var chain: ValidatedChain
        var lastUse: UInt64
    }

    private struct State {
        var entries: [Substring: Entry] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let state = LockedValue(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func lookup(_ header: Substring) -> ValidatedChain? {
        state.withLock { state in
            guard var entry = state.entries[header] else { return nil }
            state.clock &+= 1
            entry.lastUse = state.clock
            state.entries[header] = entry
            return entry.chain
        }
    }

    func insert(_ chain: ValidatedChain, for header: Substring) {
        // Store an independent copy so the cache doesn't keep the whole JWS string alive.
        let key = Substring(String(header))
        state.withLock { state in
            state.clock &+= 1
            if state.entries[key] == nil, state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries.removeValue(forKey: oldest)
            }
            state.entries[key] = Entry(chain: chain, lastUse: state.clock)
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }
}
