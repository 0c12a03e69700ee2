/// Base64url without padding (RFC 4648 §5), the alphabet of a JWS's three parts: strict decoding
/// (no padding, no other character), and the one canonical encoding. Four characters to three bytes
/// at a time, through tables read once per call.
enum Base64URL {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
    /// Each byte's value in the alphabet; 0xFF outside it.
    private static let values: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (value, character) in alphabet.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }()

    /// The bytes `text` encodes; `nil` for a character outside the alphabet or an impossible length.
    static func decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
        let count = text.count
        guard count % 4 != 1 else { return nil }
        let values = values
        return values.withUnsafeBufferPointer { table -> [UInt8]? in
            text.withUnsafeBufferPointer { input -> [UInt8]? in
                var output = [UInt8](repeating: 0, count: count / 4 * 3 + max(0, count % 4 - 1))
                let valid = output.withUnsafeMutableBufferPointer { out -> Bool in
                    var invalid: UInt8 = 0
                    var i = 0
                    var o = 0
                    while i + 4 <= count {
                        let a = table[Int(input[i])], b = table[Int(input[i + 1])], c = table[Int(input[i + 2])], d = table[Int(input[i + 3])]
                        invalid |= a | b | c | d
                        out[o] = a << 2 | b >> 4
                        out[o + 1] = b << 4 | c >> 2
                        out[o + 2] = c << 6 | d
                        i += 4
                        o += 3
                    }
                    let rest = count - i
                    if rest >= 2 {
                        let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                        invalid |= a | b
                        out[o] = a << 2 | b >> 4
                        if rest == 3 {
                            let c = table[Int(input[i + 2])]
                            invalid |= c
                            out[o + 1] = b << 4 | c >> 2
                        }
                    }
                    // Every value is below 64: one at 0xFF sets the top bits.
                    return invalid & 0xC0 == 0
                }
                return valid ? output : nil
            }
        }
    }

    /// `bytes` encoded, appended to `output`.
    static func encode(_ bytes: [UInt8], into output: inout [UInt8]) {
        let count = bytes.count
        let start = output.count
        let length = count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1)
        output.append(contentsOf: repeatElement(0, count: length))
        let alphabet = alphabet
        alphabet.withUnsafeBufferPointer { table in
            bytes.withUnsafeBufferPointer { input in
                output.withUnsafeMutableBufferPointer { whole in
                    let out = UnsafeMutableBufferPointer(rebasing: whole[start...])
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
        }
    }

    /// The decoding table, for ``isAlphabet(_:in:)`` in a loop.
    static var table: [UInt8] { values }

    /// Whether `character` is in the alphabet (`table` being ``table``).
    static func isAlphabet(_ character: UInt8, in table: [UInt8]) -> Bool { table[Int(character)] != 0xFF }
}
