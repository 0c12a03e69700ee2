import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

@Suite("StoredSignedPayload")
struct StoredSignedPayloadTests {
    @Test("a notification and its two nested JWS keep one chain between them, a tenth of the bytes, and come back byte for byte")
    func notificationRoundTrip() throws {
        let samples = try SignedPayloadSamples()
        let jws = try samples.signedNotification("1000", period: 3, uuid: UUID())
        let encoded = StoredSignedPayload.encode(jws)
        #expect(encoded.stored.hasPrefix(StoredSignedPayload.prefix))
        #expect(encoded.chains.count == 1)
        #expect(Double(encoded.stored.utf8.count) < 0.12 * Double(jws.utf8.count))
        #expect(try StoredSignedPayload.decode(encoded.stored) { encoded.chains[$0] } == jws)
        #expect(StoredSignedPayload.chainDigests(encoded.stored) == Set(encoded.chains.keys))
        // The chain kept apart is the header's x5c array exactly as signed (JSONSerialization writes "/" as "\/").
        let chain = String(decoding: try #require(encoded.chains.values.first), as: UTF8.self)
        #expect(chain.replacingOccurrences(of: "\\/", with: "/") == "[" + samples.pki.x5c.map { "\"\($0)\"" }.joined(separator: ",") + "]")
    }

    @Test(
        "what would not come back byte for byte is stored as received",
        arguments: [
            "not a JWS",
            "",
            "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ.c2ln.extra",
            // The payload part's last character carries bits past its last byte (non-canonical base64url).
            "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfR.c2ln",
            // Padding, which a JWS never has.
            "eyJhbGciOiJFUzI1NiJ9.eyJhIjoxfQ==.c2ln",
            // A NUL byte in the payload: the compact form's escape.
            "eyJhbGciOiJFUzI1NiJ9.AA.c2ln",
            "~1 looks like a stored form",
        ])
    func storedAsReceived(jws: String) throws {
        let encoded = StoredSignedPayload.encode(jws)
        #expect(encoded.stored == jws || encoded.stored == StoredSignedPayload.verbatimPrefix + jws)
        #expect(encoded.chains.isEmpty)
        #expect(try StoredSignedPayload.decode(encoded.stored) { _ in nil } == jws)
    }

    @Test("a JWS without a chain still compacts and comes back")
    func noChain() throws {
        let jws = "eyJhbGciOiJFUzI1NiJ9.eyJ0cmFuc2FjdGlvbklkIjoiMSJ9.c2lnbmF0dXJl"
        let encoded = StoredSignedPayload.encode(jws)
        #expect(encoded.chains.isEmpty)
        #expect(try StoredSignedPayload.decode(encoded.stored) { _ in nil } == jws)
    }

    @Test("a chain the lookup lacks is named, not guessed")
    func missingChain() throws {
        let samples = try SignedPayloadSamples()
        let encoded = StoredSignedPayload.encode(samples.pki.sign(samples.transaction("1", period: 0)))
        let digest = try #require(encoded.chains.keys.first)
        #expect(throws: StoredSignedPayload.Failure.missingChain(digest)) { try StoredSignedPayload.decode(encoded.stored) { _ in nil } }
    }

    @Test(
        "a damaged stored form is refused with a reason, never read as other bytes",
        arguments: [
            "~1", "~1!!!!", "~1AAAA", "~1eJwDAAAAAAE=",
        ])
    func damaged(stored: String) {
        #expect(throws: StoredSignedPayload.Failure.self) { try StoredSignedPayload.decode(stored) { _ in nil } }
    }

    @Test("every single-byte change of a stored form's deflated bytes is refused or reads back the original")
    func everyByteFlipped() throws {
        let samples = try SignedPayloadSamples()
        let jws = samples.pki.sign(samples.transaction("1", period: 0))
        let encoded = StoredSignedPayload.encode(jws)
        let deflated = try #require(Data(base64Encoded: String(encoded.stored.dropFirst(StoredSignedPayload.prefix.count))))
        var misread = 0
        for index in deflated.indices {
            var damaged = deflated
            damaged[index] ^= 0x5A
            let stored = StoredSignedPayload.prefix + damaged.base64EncodedString()
            if let back = try? StoredSignedPayload.decode(stored, chain: { encoded.chains[$0] }), back != jws { misread += 1 }
        }
        #expect(misread == 0)
    }
}
