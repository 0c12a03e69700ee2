import Foundation

/// Strict base64url (RFC 4648 §5) without padding, as JWS compact serialization uses it: the one
/// codec for Apple's signed data, the ledger's stored payloads, the local App Store's signatures, API
/// keys, session cookies and EntitleKit's cache. Decoding refuses padding, any other character, an
/// impossible length and non-zero leftover bits (so each byte string has one encoding); encoding is
/// that one encoding.
public enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's value in the alphabet; 0xFF outside it.
    public static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in alphabet.enumerated() { table[Int(character)] = UInt8(index) }
        return table
    }()

    /// Whether `character` is in the alphabet (`table` being ``table``, read once before a loop).
    @inlinable
    public static func isAlphabet(_ character: UInt8, in table: [UInt8]) -> Bool { table[Int(character)] != 0xFF }

    /// Decodes `text`; `nil` unless it is strict base64url.
    public static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        text.withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes `text`; `nil` for any character outside the alphabet, padding, or an impossible length.
    public static func decode(_ text: Substring.UTF8View) -> [UInt8]? {
        if let decoded = text.withContiguousStorageIfAvailable({ decode($0) }) { return decoded }
        return Array(text).withUnsafeBufferPointer { decode($0) }
    }

    /// Decodes the base64url characters in `text`; `nil` for any character outside the alphabet,
    /// padding, or an impossible length. Four characters at a time, with one validity check at the end.
    public static func decode(_ text: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let count = text.count
        let remainder = count % 4
        guard remainder != 1 else { return nil }
        let outputCount = count / 4 * 3 + (remainder == 0 ? 0 : remainder - 1)
        var valid = false
        let output = [UInt8](unsafeUninitializedCapacity: outputCount) { output, initialized in
            table.withUnsafeBufferPointer { table in
                // Every value in the alphabet is below 64; anything else looks up 0xFF, whose high bit
                // `invalid` collects.
                var invalid: UInt8 = 0
                var input = 0
                var written = 0
                while input + 4 <= count {
                    let a = table[Int(text[input])], b = table[Int(text[input + 1])]
                    let c = table[Int(text[input + 2])], d = table[Int(text[input + 3])]
                    invalid |= a | b | c | d
                    let group = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                    output[written] = UInt8(truncatingIfNeeded: group >> 16)
                    output[written + 1] = UInt8(truncatingIfNeeded: group >> 8)
                    output[written + 2] = UInt8(truncatingIfNeeded: group)
                    input += 4
                    written += 3
                }
                // Leftover bits must be zero, or two encodings would decode to the same bytes.
                var leftover: UInt8 = 0
                if remainder >= 2 {
                    let a = table[Int(text[input])], b = table[Int(text[input + 1])]
                    invalid |= a | b
                    output[written] = a << 2 | b >> 4
                    if remainder == 3 {
                        let c = table[Int(text[input + 2])]
                        invalid |= c
                        output[written + 1] = (b & 0x0F) << 4 | c >> 2
                        leftover = c & 0x03
                    } else {
                        leftover = b & 0x0F
                    }
                }
                valid = invalid & 0x80 == 0 && leftover == 0
            }
            initialized = outputCount
        }
        return valid ? output : nil
    }

    /// Decodes `text`; `nil` unless it is strict base64url.
    public static func decode(_ text: String) -> Data? {
        decode(Substring(text).utf8).map { Data($0) }
    }

    /// Encodes `bytes` without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        String(decoding: encoded(Array(bytes)), as: UTF8.self)
    }

    /// Appends `bytes`, encoded without padding, to `output`.
    public static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
        if output.isEmpty {
            output = encoded(bytes)
        } else {
            output.append(contentsOf: encoded(bytes))
        }
    }

    /// `bytes` encoded without padding: three bytes to four characters at a time, written in place (no
    /// element-by-element appends, which unoptimized builds, the tests', run slowly).
    static func encoded(_ bytes: [UInt8]) -> [UInt8] {
        let count = bytes.count
        let length = count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
        return [UInt8](unsafeUninitializedCapacity: length) { out, initialized in
            alphabet.withUnsafeBufferPointer { table in
                bytes.withUnsafeBufferPointer { input in
                    var i = 0
                    var o = 0
                    while i + 3 <= count {
                        let a = input[i], b = input[i + 1], c = input[i + 2]
                        out[o] = table[Int(a >> 2)]
                        out[o + 1] = table[Int((a & 0x03) << 4 | b >> 4)]
                        out[o + 2] = table[Int((b & 0x0F) << 2 | c >> 6)]
                        out[o + 3] = table[Int(c & 0x3F)]
                        i += 3
                        o += 4
                    }
                    if count - i == 1 {
                        let a = input[i]
                        out[o] = table[Int(a >> 2)]
                        out[o + 1] = table[Int((a & 0x03) << 4)]
                    } else if count - i == 2 {
                        let a = input[i], b = input[i + 1]
                        out[o] = table[Int(a >> 2)]
                        out[o + 1] = table[Int((a & 0x03) << 4 | b >> 4)]
                        out[o + 2] = table[Int((b & 0x0F) << 2)]
                    }
                }
            }
            initialized = length
        }
    }
}
