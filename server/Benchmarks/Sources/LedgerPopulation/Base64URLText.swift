import Foundation

/// Base64url without padding, as a JWS's parts are written, table-driven (the population signs millions).
enum Base64URLText {
    private static let alphabet: [UInt8] = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    static func encode(_ data: some DataProtocol) -> String {
        let bytes = [UInt8](data)
        let count = bytes.count
        var output = [UInt8](repeating: 0, count: count / 3 * 4 + (count % 3 == 0 ? 0 : count % 3 + 1))
        let table = alphabet
        var i = 0
        var o = 0
        while i + 3 <= count {
            let a = bytes[i], b = bytes[i + 1], c = bytes[i + 2]
            output[o] = table[Int(a >> 2)]
            output[o + 1] = table[Int((a & 0x03) << 4 | b >> 4)]
            output[o + 2] = table[Int((b & 0x0F) << 2 | c >> 6)]
            output[o + 3] = table[Int(c & 0x3F)]
            i += 3
            o += 4
        }
        if count - i == 1 {
            output[o] = table[Int(bytes[i] >> 2)]
            output[o + 1] = table[Int((bytes[i] & 0x03) << 4)]
        } else if count - i == 2 {
            let a = bytes[i], b = bytes[i + 1]
            output[o] = table[Int(a >> 2)]
            output[o + 1] = table[Int((a & 0x03) << 4 | b >> 4)]
            output[o + 2] = table[Int((b & 0x0F) << 2)]
        }
        return String(decoding: output, as: UTF8.self)
    }
}
