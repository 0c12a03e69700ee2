import AppStoreModels
import Foundation

/// A strict reader of JSON a token at a time: objects, arrays, strings without escapes, numbers in
/// JSON's grammar, booleans, and values skipped whole. Anything else (an escape, `null` where a value is
/// read, a control character, invalid UTF-8, a malformed number, nesting past ``maximumDepth``) makes a
/// read return `nil` or `false`, and the caller hands the whole text to `JSONDecoder`, so what this reads
/// is always what `JSONDecoder` would read.
@usableFromInline package struct JSONCursor {
    /// How many arrays and objects deep a skipped value may nest before the text is left to `JSONDecoder`.
    @usableFromInline package static let maximumDepth = 32

    @usableFromInline let bytes: UnsafeBufferPointer<UInt8>
    @usableFromInline var index = 0

    @inlinable package init(_ bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
    }

    /// What `read` makes of the whole of `text` (nothing may follow it but whitespace), or `nil`.
    @inlinable package static func read<T>(_ text: String, _ read: (inout JSONCursor) -> T?) -> T? {
        var text = text
        return text.withUTF8 { Self.read($0, read) }
    }

    /// What `read` makes of the whole of `bytes` (nothing may follow it but whitespace), or `nil`.
    @inlinable package static func read<T>(_ bytes: UnsafeBufferPointer<UInt8>, _ read: (inout JSONCursor) -> T?) -> T? {
        var cursor = JSONCursor(bytes)
        guard let value = read(&cursor), cursor.atEnd() else { return nil }
        return value
    }

    /// Whether only whitespace is left.
    @inlinable mutating func atEnd() -> Bool {
        skipWhitespace()
        return index == bytes.count
    }

    /// Reads an object, calling `member` with each key (positioned at its value), which must read
    /// the value and return whether it could: `false` for a key it doesn't know or has seen already
    /// (`JSONDecoder` doesn't say which of two equal keys wins). `false` when the object or a member
    /// couldn't be read. Keys are read as strings are (a key past ASCII only as valid UTF-8), but
    /// handed over as their bytes (``JSONKey``): matching one costs no `String`.
    @inlinable package mutating func object(_ member: (inout JSONCursor, JSONKey) -> Bool) -> Bool {
        guard take(UInt8(ascii: "{")) else { return false }
        if take(UInt8(ascii: "}")) { return true }
        while true {
            guard let range = stringBytes() else { return false }
            let key = UnsafeBufferPointer(rebasing: bytes[range.bytes])
            guard range.ascii || String(validating: key, as: UTF8.self) != nil, take(UInt8(ascii: ":")) else { return false }
            guard member(&self, JSONKey(key)) else { return false }
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "}"))
        }
    }

    /// Stores `value` in `field` for an object's member: `false` (leave the text to `JSONDecoder`) when
    /// there was no value to store, or the field was set already (its key came twice).
    @inlinable package static func set<T>(_ field: inout T?, _ value: T?) -> Bool {
        guard field == nil, let value else { return false }
        field = value
        return true
    }

    /// Reads an array, calling `element` for each element.
    @inlinable package mutating func array(_ element: (inout JSONCursor) -> Bool) -> Bool {
        guard take(UInt8(ascii: "[")) else { return false }
        if take(UInt8(ascii: "]")) { return true }
        while true {
            guard element(&self) else { return false }
            if take(UInt8(ascii: ",")) { continue }
            return take(UInt8(ascii: "]"))
        }
    }

    /// A string with no escapes, no control characters and valid UTF-8.
    @inlinable package mutating func string() -> String? {
        stringBytes().flatMap(text)
    }

    /// The string whose contents ``stringBytes()`` found: as is when all ASCII, else only as valid UTF-8.
    @inlinable func text(_ range: (bytes: Range<Int>, ascii: Bool)) -> String? {
        let text = UnsafeBufferPointer(rebasing: bytes[range.bytes])
        guard range.ascii else { return String(validating: text, as: UTF8.self) }
        return String(decoding: text, as: UTF8.self)
    }

    /// Where the next string's contents are, and whether they are all ASCII; `nil` unless it is a string
    /// with no escapes and no control characters.
    @inlinable mutating func stringBytes() -> (bytes: Range<Int>, ascii: Bool)? {
        guard take(UInt8(ascii: "\"")), let base = bytes.baseAddress, index < bytes.count,
            let quote = memchr(base + index, Int32(UInt8(ascii: "\"")), bytes.count - index)
        else { return nil }
        let start = index
        let end = UnsafeRawPointer(quote) - UnsafeRawPointer(base)
        guard let ascii = Self.asciiIfPlain(UnsafeRawBufferPointer(UnsafeBufferPointer(rebasing: bytes[start..<end]))) else { return nil }
        index = end + 1
        return (start..<end, ascii)
    }

    /// Whether `bytes` are all ASCII, or `nil` when they hold a backslash or a control character:
    /// eight bytes at a time (a signed notification's nested JWS are kilobytes long).
    @inlinable static func asciiIfPlain(_ bytes: UnsafeRawBufferPointer) -> Bool? {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let backslashes = ones &* UInt64(UInt8(ascii: "\\"))
        var flagged: UInt64 = 0
        var seen: UInt64 = 0
        var offset = 0
        while offset + 8 <= bytes.count {
            let word = bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self)
            // A byte below 0x20 (with its high bit clear); a byte equal to a backslash. Exact for "any".
            flagged |= (word &- ones &* 0x20) & ~word & highs
            let matched = word ^ backslashes
            flagged |= (matched &- ones) & ~matched & highs
            seen |= word
            offset += 8
        }
        var tail = seen & highs == 0 ? UInt8(0) : 0x80
        while offset < bytes.count {
            let byte = bytes[offset]
            if byte < 0x20 || byte == UInt8(ascii: "\\") { return nil }
            tail |= byte
            offset += 1
        }
        guard flagged == 0 else { return nil }
        return tail < 0x80
    }

    @inlinable package mutating func bool() -> Bool? {
        skipWhitespace()
        if literal("true") { return true }
        if literal("false") { return false }
        return nil
    }

    /// An integer: digits only (no fraction or exponent), within `T`'s range; read from the digits
    /// as `T(text, radix: 10)` reads them.
    @inlinable package mutating func integer<T: FixedWidthInteger>(_: T.Type) -> T? {
        guard let (range, integral) = numberBytes(), integral else { return nil }
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        // `-0` as an unsigned integer: as `T(text, radix: 10)` has it.
        guard T.isSigned || !negative else { return T(numberText(range), radix: 10) }
        var value: T = 0
        for index in (negative ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound {
            let digit = T(bytes[index] &- UInt8(ascii: "0"))
            let (shifted, overflowed) = value.multipliedReportingOverflow(by: 10)
            // Negative numbers accumulate downwards, so `T.min` reads.
            let (next, overflowedAgain) = negative ? shifted.subtractingReportingOverflow(digit) : shifted.addingReportingOverflow(digit)
            guard !overflowed, !overflowedAgain else { return nil }
            value = next
        }
        return value
    }

    /// A number as `Double(text)` reads it; finite only. An integer of at most 15 digits (below 2⁵³,
    /// where every integer is a `Double` exactly, as `Double(text)` rounds it) is read from its digits.
    @inlinable package mutating func double() -> Double? {
        guard let (range, integral) = numberBytes() else { return nil }
        let negative = bytes[range.lowerBound] == UInt8(ascii: "-")
        let digits = range.count - (negative ? 1 : 0)
        guard integral, digits <= 15 else {
            guard let value = Double(numberText(range)), value.isFinite else { return nil }
            return value
        }
        var magnitude: Int64 = 0
        for index in (negative ? range.lowerBound + 1 : range.lowerBound)..<range.upperBound {
            magnitude = magnitude &* 10 &+ Int64(bytes[index] &- UInt8(ascii: "0"))
        }
        // `-0` is negative zero, as `Double("-0")` has it.
        return negative ? -Double(magnitude) : Double(magnitude)
    }

    /// A date as `JSONDecoder` reads `.millisecondsSince1970`.
    @inlinable package mutating func date() -> Date? {
        double().map { Date(timeIntervalSince1970: $0 / 1000.0) }
    }

    /// A UUID as `UUID(uuidString:)` reads the string: the canonical form (8-4-4-4-12 hexadecimal
    /// digits, either case) from its bytes; any other string through `UUID(uuidString:)` itself, which
    /// reads some others too.
    @inlinable package mutating func uuid() -> UUID? {
        guard let range = stringBytes() else { return nil }
        if let uuid = Self.canonicalUUID(UnsafeBufferPointer(rebasing: bytes[range.bytes])) { return uuid }
        return text(range).flatMap(UUID.init(uuidString:))
    }

    /// The UUID of `text` if it is in the canonical form, else `nil`.
    @inlinable static func canonicalUUID(_ text: UnsafeBufferPointer<UInt8>) -> UUID? {
        guard text.count == 36 else { return nil }
        var uuid: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let complete = withUnsafeMutableBytes(of: &uuid) { output -> Bool in
            var position = 0
            var byte = 0
            while position < 36 {
                if position == 8 || position == 13 || position == 18 || position == 23 {
                    guard text[position] == UInt8(ascii: "-") else { return false }
                    position += 1
                    continue
                }
                guard let high = hexValue(text[position]), let low = hexValue(text[position + 1]) else { return false }
                output[byte] = high << 4 | low
                byte += 1
                position += 2
            }
            return true
        }
        return complete ? UUID(uuid: uuid) : nil
    }

    @inlinable static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }

    /// One of Apple's enumerations, whose raw value is a string or a 32-bit integer.
    @inlinable package mutating func enumeration<E: AppStoreEnumeration>() -> E? {
        if E.RawValue.self == String.self {
            return string().flatMap { $0 as? E.RawValue }.map(E.init(rawValue:))
        }
        if E.RawValue.self == Int32.self {
            return integer(Int32.self).flatMap { $0 as? E.RawValue }.map(E.init(rawValue:))
        }
        return nil
    }

    /// Steps over one value of any kind that this cursor reads (`null` included): what `JSONDecoder`
    /// does with a key its type doesn't have. `false` for anything it would have to read more loosely.
    @inlinable package mutating func skipValue(depth: Int = 0) -> Bool {
        guard depth < Self.maximumDepth else { return false }
        skipWhitespace()
        guard index < bytes.count else { return false }
        switch bytes[index] {
        case UInt8(ascii: "{"):
            return object { cursor, _ in cursor.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            return array { cursor in cursor.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""):
            return string() != nil
        case UInt8(ascii: "t"), UInt8(ascii: "f"):
            return bool() != nil
        case UInt8(ascii: "n"):
            return literal("null")
        default:
            return double() != nil
        }
    }

    /// The number's text at `range`.
    @inlinable func numberText(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: bytes[range]), as: UTF8.self)
    }

    /// Where a number's text is, and whether it has neither fraction nor exponent.
    @inlinable mutating func numberBytes() -> (Range<Int>, Bool)? {
        skipWhitespace()
        let start = index
        var integral = true
        if peek(UInt8(ascii: "-")) { index += 1 }
        if peek(UInt8(ascii: "0")) {
            index += 1
        } else {
            guard digits() else { return nil }
        }
        if peek(UInt8(ascii: ".")) {
            index += 1
            integral = false
            guard digits() else { return nil }
        }
        if peek(UInt8(ascii: "e")) || peek(UInt8(ascii: "E")) {
            index += 1
            integral = false
            if peek(UInt8(ascii: "+")) || peek(UInt8(ascii: "-")) { index += 1 }
            guard digits() else { return nil }
        }
        return (start..<index, integral)
    }

    /// One or more digits.
    @inlinable mutating func digits() -> Bool {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return index > start
    }

    @inlinable mutating func literal(_ word: StaticString) -> Bool {
        let count = word.utf8CodeUnitCount
        guard index + count <= bytes.count else { return false }
        for offset in 0..<count where bytes[index + offset] != word.utf8Start[offset] { return false }
        // A literal ends where a token may: not inside a longer word.
        if index + count < bytes.count, Self.isWordByte(bytes[index + count]) { return false }
        index += count
        return true
    }

    @inlinable static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    @inlinable func peek(_ byte: UInt8) -> Bool {
        index < bytes.count && bytes[index] == byte
    }

    @inlinable mutating func take(_ byte: UInt8) -> Bool {
        skipWhitespace()
        guard peek(byte) else { return false }
        index += 1
        return true
    }

    @inlinable mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x0A, 0x0D, 0x09: index += 1
            default: return
            }
        }
    }
}
