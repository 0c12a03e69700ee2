import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

/// Random byte and segment mutations of valid JWS: the verifier must never crash, and must never
/// accept a JWS whose signed bytes differ from the original's.
@Suite("SignedDataVerifier: mutations")
struct MutationTests {
    static let mutationsPerSeed = 1_300

    /// The decoded bytes `header.payload` stand for: what the signature covers.
    static func signedBytes(_ jws: String) -> [[UInt8]]? {
        // Bytes, as the compact serialization is: splitting a String would break it into Characters.
        let parts = Array(jws.utf8).split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        return parts.prefix(2).map { part in
            var base64 = part.map { $0 == UInt8(ascii: "-") ? UInt8(ascii: "+") : $0 == UInt8(ascii: "_") ? UInt8(ascii: "/") : $0 }
            base64 += repeatElement(UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
            return Data(base64Encoded: Data(base64)).map(Array.init) ?? []
        }
    }

    static func mutate(_ jws: String, using generator: inout SeededGenerator) -> String {
        var bytes = Array(jws.utf8)
        guard !bytes.isEmpty else { return "." }
        let segments = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false).map(Array.init)
        switch Int.random(in: 0..<8, using: &generator) {
        case 0, 1, 2:
            // Replace one byte anywhere with a base64url character or anything at all.
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
            bytes[index] = Bool.random(using: &generator) ? alphabet.randomElement(using: &generator)! : UInt8.random(in: 0...255, using: &generator)
        case 3:
            bytes.remove(at: Int.random(in: 0..<bytes.count, using: &generator))
        case 4:
            bytes.insert(UInt8.random(in: 32...126, using: &generator), at: Int.random(in: 0...bytes.count, using: &generator))
        case 5:
            bytes = Array(bytes.prefix(Int.random(in: 0..<bytes.count, using: &generator)))
        case 6:
            // Swap, duplicate or drop whole segments.
            var shuffled = segments
            switch Int.random(in: 0..<3, using: &generator) {
            case 0: shuffled.swapAt(Int.random(in: 0..<shuffled.count, using: &generator), Int.random(in: 0..<shuffled.count, using: &generator))
            case 1: shuffled.insert(segments.randomElement(using: &generator)!, at: Int.random(in: 0...shuffled.count, using: &generator))
            default: shuffled.remove(at: Int.random(in: 0..<shuffled.count, using: &generator))
            }
            return String(decoding: Array(shuffled.joined(separator: [UInt8(ascii: ".")])), as: UTF8.self)
        default:
            // Flip one bit inside the payload or signature segment.
            let start = min(segments[0].count + 1, bytes.count - 1)
            let index = Int.random(in: max(0, start)..<bytes.count, using: &generator)
            bytes[index] ^= UInt8(1) << UInt8.random(in: 0..<7, using: &generator)
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test("mutated transactions and notifications never crash the verifier and are never accepted altered", arguments: 0..<8)
    func mutations(seed: UInt64) async throws {
        let pki = try TestPKI()
        let verifier = SignedDataVerifier(
            configuration: VerifierConfiguration(bundleID: "com.example", environment: .sandbox, appAppleID: 1234, rootCertificates: [pki.root]),
            now: { ReferenceTime.start })
        let transaction = AppleFacts().subscription("com.example.monthly", original: "1000", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))
        let notification = ResponseBodyV2DecodedPayload(
            notificationType: .didRenew, notificationUUID: "9f1c2f1e-0000-4000-8000-000000000001",
            data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: "com.example", signedTransactionInfo: pki.sign(transaction)),
            version: "2.0", signedDate: ReferenceTime.start)
        let originals = [pki.sign(transaction), pki.sign(notification)]

        var generator = SeededGenerator(seed: seed)
        var accepted = 0
        var rejected = 0
        for round in 0..<Self.mutationsPerSeed {
            let original = originals[round % 2]
            var mutated = Self.mutate(original, using: &generator)
            if Bool.random(using: &generator) { mutated = Self.mutate(mutated, using: &generator) }
            do {
                if round % 2 == 0 { _ = try await verifier.verifyTransaction(mutated) } else { _ = try await verifier.verifyNotification(mutated) }
                accepted += 1
                #expect(Self.signedBytes(mutated) == Self.signedBytes(original), "accepted a JWS whose signed bytes changed: \(mutated.prefix(80))…")
            } catch {
                rejected += 1
            }
        }
        #expect(accepted + rejected == Self.mutationsPerSeed)
        #expect(rejected > Self.mutationsPerSeed * 9 / 10)
    }
}
