import Crypto
import Foundation
import P256FixedKey

/// Validated chains, keyed by the exact bytes of the JWS header that carries them (the header holds
/// `alg` and every x5c certificate, so equal bytes mean the same chain).
///
/// Apple signs with a few long-lived certificates, so nearly every lookup hits and a verification
/// costs one P-256 signature check, made with the leaf key's own comb table (``P256FixedKeyVerifier``,
/// 151,552 bytes, shared by the entries whose chains end in the same key). Bounded: the least
/// recently used entry goes first. Only the lookup holds the lock; signature checks and building a
/// table run outside it, so verification scales with cores.
final class ChainCache: Sendable {
    /// A cached chain, and SHA-256 having read its header and the dot after it: the signature's
    /// digest of `header.payload` continues from there with the payload alone (the header's 4–5 KB
    /// are most of a transaction's signing input).
    struct Hit: Sendable {
        let chain: ValidatedChain
        let headerHash: SHA256
        /// The chain's signing key with its table; `nil` only if one couldn't be built, and the key
        /// itself then verifies.
        let verifier: P256FixedKeyVerifier?

        init(chain: ValidatedChain, header: Substring, verifier: P256FixedKeyVerifier?) {
            self.chain = chain
            self.verifier = verifier
            var hasher = SHA256()
            var signed = header + "."
            signed.withUTF8 { hasher.update(bufferPointer: UnsafeRawBufferPointer($0)) }
            self.headerHash = hasher
        }
    }

    private struct Entry {
        var hit: Hit
        var lastUse: UInt64
    }

    /// A header's bytes. Hashing reads the length and the first 512 bytes (alg and the leaf
    /// certificate's serial number, validity and subject), not all 4–5 KB; equality compares every byte.
    private struct Key: Hashable {
        let header: Substring

        func hash(into hasher: inout Hasher) {
            hasher.combine(header.utf8.count)
            if header.utf8.withContiguousStorageIfAvailable({ hasher.combine(bytes: UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: $0.prefix(512)))) }) == nil {
                for byte in header.utf8.prefix(512) { hasher.combine(byte) }
            }
        }

        static func == (lhs: Key, rhs: Key) -> Bool {
            let (left, right) = (lhs.header.utf8, rhs.header.utf8)
            guard left.count == right.count else { return false }
            let equal = left.withContiguousStorageIfAvailable { left in
                right.withContiguousStorageIfAvailable { right in
                    guard let l = left.baseAddress, let r = right.baseAddress else { return left.count == right.count }
                    return memcmp(l, r, left.count) == 0
                }
            }
            return (equal ?? nil) ?? left.elementsEqual(right)
        }
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var clock: UInt64 = 0
    }

    let capacity: Int
    private let state = LockedValue(State())

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    func lookup(_ header: Substring) -> Hit? {
        state.withLock { state in
            guard let index = state.entries.index(forKey: Key(header: header)) else { return nil }
            state.clock &+= 1
            state.entries.values[index].lastUse = state.clock
            return state.entries.values[index].hit
        }
    }

    func insert(_ chain: ValidatedChain, for header: Substring) {
        // Store an independent copy so the cache doesn't keep the whole JWS string alive.
        let key = Key(header: Substring(String(header)))
        let signingKey = chain.signingKey.rawRepresentation
        let shared = state.withLock { state in
            state.entries.values.first { $0.hit.chain.signingKey.rawRepresentation == signingKey }?.hit.verifier
        }
        let hit = Hit(chain: chain, header: key.header, verifier: shared ?? P256FixedKeyVerifier(chain.signingKey))
        state.withLock { state in
            state.clock &+= 1
            if state.entries[key] == nil, state.entries.count >= capacity,
                let oldest = state.entries.min(by: { $0.value.lastUse < $1.value.lastUse })?.key
            {
                state.entries.removeValue(forKey: oldest)
            }
            state.entries[key] = Entry(hit: hit, lastUse: state.clock)
        }
    }

    var count: Int { state.withLock { $0.entries.count } }

    func removeAll() {
        state.withLock { $0.entries.removeAll() }
    }
}
