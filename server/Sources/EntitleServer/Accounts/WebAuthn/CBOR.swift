import Foundation

/// The part of CBOR (RFC 8949) WebAuthn's attestation objects and COSE keys use: integers, byte and text
/// strings, arrays, maps, and the simple values; definite lengths only. Any other input — indefinite
/// lengths, tags, floats, nesting deeper than 16, a length past the end — is a typed error, never a trap.
enum CBOR: Hashable, Sendable {
    case unsigned(UInt64)
    /// -1 - n, kept as n.
    case negative(UInt64)
    case bytes(Data)
    case text(String)
    case array([CBOR])
    case map([CBOR: CBOR])
    case bool(Bool)
    case null

    struct DecodingError: Error, Hashable {
        let reason: String
    }

    /// The one item in `data`, and the bytes after it (an authenticator's data follows its COSE key with extensions).
    static func decodePrefix(_ data: Data) throws(DecodingError) -> (item: CBOR, rest: Data) {
        var reader = Reader(bytes: Array(data))
        let item = try reader.item(depth: 0)
        return (item, Data(reader.bytes[reader.offset...]))
    }

    /// The one item that is all of `data`.
    static func decode(_ data: Data) throws(DecodingError) -> CBOR {
        let (item, rest) = try decodePrefix(data)
        guard rest.isEmpty else { throw DecodingError(reason: "\(rest.count) bytes after the CBOR item") }
        return item
    }

    /// An integer key or value as Swift's `Int`, when it fits.
    var int: Int? {
        switch self {
        case .unsigned(let value): Int(exactly: value)
        case .negative(let value): Int(exactly: value).map { -1 - $0 }
        default: nil
        }
    }

    subscript(key: Int) -> CBOR? {
        guard case .map(let map) = self else { return nil }
        return map[key >= 0 ? .unsigned(UInt64(key)) : .negative(UInt64(-1 - key))]
    }

    subscript(key: String) -> CBOR? {
        guard case .map(let map) = self else { return nil }
        return map[.text(key)]
    }

    var data: Data? {
        if case .bytes(let data) = self { return data }
        return nil
    }

    var string: String? {
        if case .text(let text) = self { return text }
        return nil
    }

    private struct Reader {
        let bytes: [UInt8]
        var offset = 0
        static let deepest = 16

        mutating func take(_ count: Int) throws(DecodingError) -> ArraySlice<UInt8> {
            guard count >= 0, count <= bytes.count - offset else { throw DecodingError(reason: "a length runs past the end") }
            defer { offset += count }
            return bytes[offset..<offset + count]
        }

        mutating func argument(_ info: UInt8) throws(DecodingError) -> UInt64 {
            switch info {
            case 0..<24: return UInt64(info)
            case 24: return UInt64(try take(1).first ?? 0)
            case 25, 26, 27:
                let width = 1 << (Int(info) - 24)
                return try take(width).reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            default: throw DecodingError(reason: "an indefinite length or a reserved value")
            }
        }

        /// A length that fits what is left.
        mutating func length(_ info: UInt8) throws(DecodingError) -> Int {
            let value = try argument(info)
            guard value <= UInt64(bytes.count - offset) else { throw DecodingError(reason: "a length runs past the end") }
            return Int(value)
        }

        mutating func item(depth: Int) throws(DecodingError) -> CBOR {
            guard depth <= Self.deepest else { throw DecodingError(reason: "nested deeper than \(Self.deepest)") }
            guard let initial = try take(1).first else { throw DecodingError(reason: "no item") }
            let (major, info) = (initial >> 5, initial & 0x1F)
            switch major {
            case 0: return .unsigned(try argument(info))
            case 1: return .negative(try argument(info))
            case 2: return .bytes(Data(try take(try length(info))))
            case 3:
                guard let text = String(validating: try take(try length(info)), as: UTF8.self) else { throw DecodingError(reason: "a text string that isn't UTF-8") }
                return .text(text)
            case 4:
                // Each item takes at least a byte: a count beyond what is left is refused before any work.
                let count = try length(info)
                var items: [CBOR] = []
                for _ in 0..<count { items.append(try item(depth: depth + 1)) }
                return .array(items)
            case 5:
                let count = try length(info)
                var map: [CBOR: CBOR] = [:]
                for _ in 0..<count {
                    let key = try item(depth: depth + 1)
                    guard map[key] == nil else { throw DecodingError(reason: "a map with a key twice") }
                    map[key] = try item(depth: depth + 1)
                }
                return .map(map)
            case 7:
                switch info {
                case 20: return .bool(false)
                case 21: return .bool(true)
                case 22: return .null
                default: throw DecodingError(reason: "a float or an unknown simple value")
                }
            default: throw DecodingError(reason: "a tag")
            }
        }
    }
}
