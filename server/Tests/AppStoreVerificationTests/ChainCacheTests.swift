@testable import AppStoreVerification
import Crypto
import Foundation
import P256FixedKey
import Testing

@Suite("ChainCache")
struct ChainCacheTests {
    static func chain(_ seconds: TimeInterval = 0, key: P256.Signing.PublicKey = P256.Signing.PrivateKey().publicKey) -> ValidatedChain {
        ValidatedChain(
            signingKey: key,
            validity: Date(timeIntervalSince1970: seconds)...Date(timeIntervalSince1970: seconds + 1), checkedAt: nil)
    }

    /// A header-sized text: the same first 600 characters, then `tail`.
    static func header(_ tail: String) -> String {
        String(repeating: "M", count: 600) + tail + String(repeating: "z", count: 4_000)
    }

    @Test("A header equal byte for byte, in another string, finds its chain")
    func equalBytesHit() {
        let cache = ChainCache(capacity: 4)
        cache.insert(Self.chain(1), for: Substring(Self.header("a")))
        let text = "x" + Self.header("a") + ".payload"
        let header = text.dropFirst().prefix(Self.header("a").count)
        #expect(cache.lookup(header)?.chain.validity.lowerBound == Date(timeIntervalSince1970: 1))
    }

    @Test("Headers that agree in their first 512 bytes and length but differ later are different keys")
    func laterBytesMiss() {
        let cache = ChainCache(capacity: 4)
        cache.insert(Self.chain(1), for: Substring(Self.header("a")))
        cache.insert(Self.chain(2), for: Substring(Self.header("b")))
        #expect(cache.count == 2)
        #expect(cache.lookup(Substring(Self.header("a")))?.chain.validity.lowerBound == Date(timeIntervalSince1970: 1))
        #expect(cache.lookup(Substring(Self.header("b")))?.chain.validity.lowerBound == Date(timeIntervalSince1970: 2))
        #expect(cache.lookup(Substring(Self.header("c"))) == nil)
        #expect(cache.lookup(Substring(Self.header("ab"))) == nil)
    }

    @Test("The hash kept with a chain continues, from one cached state, to the digest of header.payload", arguments: [1, 62, 63, 64, 65, 127, 5_000])
    func headerHashContinues(headerLength: Int) throws {
        let cache = ChainCache(capacity: 2)
        let header = String(repeating: "h", count: headerLength)
        cache.insert(Self.chain(), for: Substring(header))
        let hit = try #require(cache.lookup(Substring(header)))
        for payload in ["", "p", String(repeating: "payload", count: 100), "p"] {
            var hasher = hit.headerHash
            hasher.update(data: Data(payload.utf8))
            #expect(hasher.finalize() == SHA256.hash(data: Data("\(header).\(payload)".utf8)), "\(payload.count)")
        }
    }

    @Test("At capacity the least recently used chain goes first")
    func evictsLeastRecentlyUsed() {
        let cache = ChainCache(capacity: 2)
        cache.insert(Self.chain(1), for: "one")
        cache.insert(Self.chain(2), for: "two")
        _ = cache.lookup("one")
        cache.insert(Self.chain(3), for: "three")
        #expect(cache.count == 2)
        #expect(cache.lookup("one") != nil)
        #expect(cache.lookup("two") == nil)
        #expect(cache.lookup("three") != nil)
        cache.removeAll()
        #expect(cache.count == 0)
    }

    @Test("Chains ending in the same key share one verifier with the key's table; another key has its own")
    func verifiers() throws {
        let cache = ChainCache(capacity: 4)
        let signer = P256.Signing.PrivateKey()
        cache.insert(Self.chain(1, key: signer.publicKey), for: "one")
        cache.insert(Self.chain(2, key: signer.publicKey), for: "two")
        cache.insert(Self.chain(3), for: "three")
        let one = try #require(cache.lookup("one")?.verifier)
        let two = try #require(cache.lookup("two")?.verifier)
        let three = try #require(cache.lookup("three")?.verifier)
        #expect(one === two)
        #expect(one !== three)
        let message = Data("header.payload".utf8)
        let signature = try signer.signature(for: message).rawRepresentation
        #expect(one.isValidSignature(signature, for: SHA256.hash(data: message)))
        #expect(!three.isValidSignature(signature, for: SHA256.hash(data: message)))
    }
}
