import Crypto
import Foundation
import Testing

@testable import EntitleServer

@Suite("Hex")
struct HexTests {
    @Test("bytes are written as two lowercase digits each, as String(format: \"%02x\") writes them", arguments: [
        [UInt8](), [0x00], [0x0f, 0xf0], [0xde, 0xad, 0xbe, 0xef], Array(0...255),
    ])
    func encodes(bytes: [UInt8]) {
        #expect(Hex.encode(bytes) == bytes.map { String(format: "%02x", $0) }.joined())
        #expect(Hex.decode(Substring(Hex.encode(bytes))) == bytes)
    }

    @Test("a digest's hex is SHA-256's known value")
    func digest() {
        #expect(Hex.encode(SHA256.hash(data: Data("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("either case decodes; an odd count or a character that is no hex digit does not", arguments: [
        ("00ff", [UInt8]([0x00, 0xff]) as [UInt8]?), ("ABcd", [0xab, 0xcd]), ("", []), ("abc", nil), ("0g", nil), ("é1", nil), (" 1", nil),
    ])
    func decodes(text: String, bytes: [UInt8]?) {
        #expect(Hex.decode(Substring(text)) == bytes)
    }
}
