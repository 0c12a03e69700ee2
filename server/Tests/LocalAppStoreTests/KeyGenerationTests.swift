import Crypto
import Foundation
@testable import LocalAppStore
import Testing

@Suite("KeyGeneration")
struct KeyGenerationTests {
    @Test("each key is new, and signs what its public key verifies, on P-256 and P-384")
    func keysSign() throws {
        let message = Data("signed by the local App Store".utf8)
        let p256 = (0..<8).map { _ in KeyGeneration.p256() }
        #expect(Set(p256.map(\.rawRepresentation)).count == 8)
        for key in p256 {
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
        }
        #expect(!p256[1].publicKey.isValidSignature(try p256[0].signature(for: message), for: message))
        let p384 = (0..<8).map { _ in KeyGeneration.p384() }
        #expect(Set(p384.map(\.rawRepresentation)).count == 8)
        for key in p384 {
            #expect(key.publicKey.isValidSignature(try key.signature(for: message), for: message))
        }
        #expect(!p384[1].publicKey.isValidSignature(try p384[0].signature(for: message), for: message))
    }

    @Test("a draw the curve refuses is drawn again; after 64 refused draws there is none")
    func redraws() {
        var draws = 0
        let third: [UInt8]? = KeyGeneration.drawn(byteCount: 48) { bytes in
            draws += 1
            return draws == 3 ? bytes : nil
        }
        #expect(draws == 3)
        #expect(third?.count == 48)
        draws = 0
        let none: [UInt8]? = KeyGeneration.drawn(byteCount: 32) { _ in draws += 1; return nil }
        #expect(none == nil)
        #expect(draws == 64)
        // A scalar of zero, or the curve's order and above, is no key.
        #expect((try? P256.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32))) == nil)
        #expect((try? P384.Signing.PrivateKey(rawRepresentation: [UInt8](repeating: 0xFF, count: 48))) == nil)
    }
}
