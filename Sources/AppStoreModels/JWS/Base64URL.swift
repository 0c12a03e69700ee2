import Foundation

/// Strict base64url (RFC 4648 §5) without padding, as JWS compact serialization uses it: the one
/// codec for Apple's signed data, the local App Store's signatures, API keys and session cookies.
public enum Base64URL {
    private static let table: [UInt8] = {
        var table = [UInt8](repeating: 0xFF, count: 256)
        for (index, character) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8.enumerated() {
            table[Int(character)] = UInt8(index)
        }
        return table
    }()

    /// Decodes `text`; `nil` for any character outside the alphabet, padding, or an impossible length.
    public static func decode(_ text: Substring.UTF8View) -> [UInt8]? {
        let count = text.count
        guard count % 4 != 1 else { return nil }
        var output = [UInt8]()
        output.reserveCapacity(count * 3 / 4)
        var accumulator: UInt32 = 0
        var bits = 0
        for character in text {
            let value = table[Int(character)]
            guard value != 0xFF else { return nil }
            accumulator = (accumulator << 6) | UInt32(value)
            bits += 6
            if bits >= 8 {
                bits -= 8
                output.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        // Leftover bits must be zero, or two encodings would decode to the same bytes.
        guard accumulator & ((1 << UInt32(bits)) - 1) == 0 else { return nil }
        return output
    }

    /// Decodes `text`; `nil` unless it is strict base64url.
    public static func decode(_ text: String) -> Data? {
        decode(Substring(text).utf8).map { Data($0) }
    }

    /// Encodes `bytes` without padding.
    public static func encode<Bytes: Sequence>(_ bytes: Bytes) -> String where Bytes.Element == UInt8 {
        let base64 = Data(bytes).base64EncodedData()
        var output: [UInt8] = []
        output.reserveCapacity(base64.count)
        for byte in base64 {
            switch byte {
            case UInt8(ascii: "+"): output.append(UInt8(ascii: "-"))
            case UInt8(ascii: "/"): output.append(UInt8(ascii: "_"))
            case UInt8(ascii: "="): continue
            default: output.append(byte)
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
