import AppStoreModels
import Foundation
import Testing

@Suite("Base64URL")
struct Base64URLTests {
    /// Deterministic bytes of every value, so each length covers many alphabet characters.
    static func bytes(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
    }

    /// Foundation's base64, translated to the URL alphabet and unpadded: a second opinion.
    static func reference(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    @Test("Encodes as Foundation does, translated, and decodes back", arguments: [0, 1, 2, 3, 4, 5, 6, 47, 48, 49, 50, 256, 4_099])
    func roundTrip(count: Int) {
        let bytes = Self.bytes(count)
        let encoded = Base64URL.encode(bytes)
        #expect(encoded == Self.reference(bytes))
        #expect(Base64URL.decode(Substring(encoded).utf8) == bytes)
        #expect(Base64URL.decode(encoded) == Data(bytes))
    }

    @Test("Encoding into text appends after what is there, as encoding alone would", arguments: [0, 1, 2, 3, 47, 4_099])
    func appends(count: Int) {
        let bytes = Self.bytes(count)
        var output = Array("header.".utf8)
        Base64URL.encode(bytes, into: &output)
        #expect(String(decoding: output, as: UTF8.self) == "header." + Self.reference(bytes))
        var empty: [UInt8] = []
        Base64URL.encode(bytes, into: &empty)
        #expect(String(decoding: empty, as: UTF8.self) == Self.reference(bytes))
    }

    @Test("Every character of the alphabet decodes to its value")
    func alphabet() {
        let alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
        // 64 characters, 6 bits each: 48 bytes holding the values 0...63 in order.
        let decoded = Base64URL.decode(Substring(alphabet).utf8)
        var expected: [UInt8] = []
        for group in stride(from: 0, to: 64, by: 4) {
            let bits = UInt32(group) << 18 | UInt32(group + 1) << 12 | UInt32(group + 2) << 6 | UInt32(group + 3)
            expected += [UInt8(bits >> 16), UInt8(truncatingIfNeeded: bits >> 8), UInt8(truncatingIfNeeded: bits)]
        }
        #expect(decoded == expected)
    }

    @Test(
        "Rejects what is not strict unpadded base64url",
        arguments: [
            "A",  // one character can't hold a byte
            "AAAAA",  // nor can a group of one
            "AQ==",  // padding
            "AQ=",
            "A+B/",  // the standard alphabet's characters
            "AB/A",
            "AB",  // leftover bits set: "AQ" is the only spelling of 0x01
            "AAB",  // leftover bits set: "AAE" is the only spelling of 0x00 0x01
            "AA A",  // a space
            "AAé",  // outside ASCII
            "AA\u{0}A",
            "AA.A",
        ])
    func rejects(text: String) {
        #expect(Base64URL.decode(Substring(text).utf8) == nil)
        #expect(Base64URL.decode(text) == nil)
    }

    @Test("Accepts the only spelling of short tails")
    func tails() {
        #expect(Base64URL.decode(Substring("AQ").utf8) == [0x01])
        #expect(Base64URL.decode(Substring("AAE").utf8) == [0x00, 0x01])
        #expect(Base64URL.decode(Substring("").utf8) == [])
    }

    @Test("Decodes from the middle of a larger text")
    func slice() {
        let text = "header.\(Self.reference(Self.bytes(100))).signature"
        let start = text.index(text.startIndex, offsetBy: 7)
        let end = text.index(text.endIndex, offsetBy: -10)
        #expect(Base64URL.decode(text[start..<end].utf8) == Self.bytes(100))
    }
}
