@testable import FastJSON
import Foundation
import Testing

@testable import AppStoreModels

@Suite("JSONCursor")
struct JSONCursorTests {
    static func read<T>(_ text: [UInt8], _ read: (inout JSONCursor) -> T?) -> T? {
        text.withUnsafeBufferPointer { JSONCursor.read($0, read) }
    }

    /// A string of `length` letters with `byte` at `position`, quoted.
    static func quoted(length: Int, byte: UInt8, at position: Int) -> [UInt8] {
        var contents = Array(repeating: UInt8(ascii: "a"), count: length)
        contents[position] = byte
        return [UInt8(ascii: "\"")] + contents + [UInt8(ascii: "\"")]
    }

    @Test("a backslash or a control character anywhere in a string, at any length, is left to JSONDecoder", arguments: [0x00, 0x09, 0x1F, UInt8(ascii: "\\")])
    func rejectedBytes(byte: UInt8) {
        for length in 1...40 {
            for position in 0..<length {
                #expect(Self.read(Self.quoted(length: length, byte: byte, at: position)) { $0.string() } == nil, "length \(length) at \(position)")
            }
        }
    }

    @Test("every other ASCII byte anywhere in a string is read as is", arguments: [0x20, 0x21, UInt8(ascii: "/"), 0x5B, 0x5D, 0x7F])
    func plainBytes(byte: UInt8) {
        for length in 1...40 {
            for position in 0..<length {
                let text = Self.quoted(length: length, byte: byte, at: position)
                #expect(Self.read(text) { $0.string() } == String(decoding: text.dropFirst().dropLast(), as: UTF8.self))
            }
        }
    }

    @Test("a string with bytes past ASCII reads only as valid UTF-8")
    func utf8() {
        for length in 2...40 {
            for position in 0..<(length - 1) {
                var valid = Self.quoted(length: length, byte: 0xC3, at: position)
                valid[position + 2] = 0xA9
                #expect(Self.read(valid) { $0.string() } == String(decoding: valid.dropFirst().dropLast(), as: UTF8.self))
                #expect(Self.read(Self.quoted(length: length, byte: 0xFF, at: position)) { $0.string() } == nil)
                #expect(Self.read(Self.quoted(length: length, byte: 0xC3, at: position + 1)) { $0.string() } == nil)
            }
        }
    }

    @Test("an unterminated string is not read")
    func unterminated() {
        #expect(Self.read(Array(#""abc"#.utf8)) { $0.string() } == nil)
        #expect(Self.read(Array(#"""#.utf8)) { $0.string() } == nil)
    }

    @Test("values are stepped over whole, within the depth limit", arguments: [
        (#"{"a":[1,-2.5e3,{"b":null,"c":true}],"d":"é","e":{}}"#, true),
        (String(repeating: "[", count: JSONCursor.maximumDepth) + String(repeating: "]", count: JSONCursor.maximumDepth), true),
        (String(repeating: "[", count: JSONCursor.maximumDepth + 1) + String(repeating: "]", count: JSONCursor.maximumDepth + 1), false),
        ("nul", false), ("nulll", false), ("01", false), ("-", false), ("1.", false), ("1e", false), (#""\n""#, false), ("[1,]", false),
        (#"{"a"}"#, false), ("1e999", false),
    ])
    func skipValue(json: String, stepped: Bool) {
        #expect((Self.read(Array(json.utf8)) { $0.skipValue() ? () : nil } != nil) == stepped)
    }

    @Test("integers read from their digits as T(text, radix: 10) reads them, overflow and -0 included", arguments: [
        "0", "-0", "7", "-7", "42", "2147483647", "2147483648", "-2147483648", "-2147483649", "4294967295", "4294967296",
        "9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809",
        "18446744073709551615", "18446744073709551616", "123456789012345678901234567890", "-1",
    ])
    func integers(text: String) {
        let bytes = Array(text.utf8)
        #expect(Self.read(bytes) { $0.integer(Int64.self) } == Int64(text, radix: 10), "Int64")
        #expect(Self.read(bytes) { $0.integer(Int32.self) } == Int32(text, radix: 10), "Int32")
        #expect(Self.read(bytes) { $0.integer(Int.self) } == Int(text, radix: 10), "Int")
        #expect(Self.read(bytes) { $0.integer(UInt64.self) } == UInt64(text, radix: 10), "UInt64")
        #expect(Self.read(bytes) { $0.integer(UInt8.self) } == UInt8(text, radix: 10), "UInt8")
        #expect(Self.read(bytes) { $0.integer(Int8.self) } == Int8(text, radix: 10), "Int8")
    }

    @Test("numbers read as Double(text) reads them, bit for bit: integers up to 15 digits from the digits, the rest as text", arguments: [
        "0", "-0", "1", "-1", "999999999999999", "-999999999999999", "1000000000000000", "9007199254740993",
        "1735689600000", "-1735689600000", "1735689600000.5", "1.5e3", "-2.5E-3", "0.1", "123456789012345678901234567890",
    ])
    func doubles(text: String) {
        let read = Self.read(Array(text.utf8)) { $0.double() }
        #expect(read?.bitPattern == Double(text)?.bitPattern)
    }

    @Test("numbers past Double's range are not read")
    func infinite() {
        #expect(Self.read(Array("1e400".utf8)) { $0.double() } == nil)
        #expect(Self.read(Array("-1e400".utf8)) { $0.double() } == nil)
    }

    @Test("random integers and dates read as Double(text) and T(text) read them")
    func randomNumbers() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<2_000 {
            let value = Int64.random(in: Int64.min...Int64.max, using: &generator) >> Int64.random(in: 0...63, using: &generator)
            let text = String(value)
            #expect(Self.read(Array(text.utf8)) { $0.integer(Int64.self) } == value)
            #expect(Self.read(Array(text.utf8)) { $0.double() }?.bitPattern == Double(text)?.bitPattern, "\(text)")
        }
    }

    @Test("a UUID reads as UUID(uuidString:) reads it: canonical ones in either case from the bytes, any other string as it says", arguments: [
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5F", "e621e1f8-c36c-495a-93fc-0c247a3e6e5f", "e621E1F8-c36C-495a-93Fc-0c247A3E6e5F",
        "00000000-0000-0000-0000-000000000000", "FFFFFFFF-FFFF-FFFF-FFFF-FFFFFFFFFFFF",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5", "E621E1F8-C36C-495A-93FC-0C247A3E6E5FF", "E621E1F8C36C-495A-93FC-0C247A3E6E5F-",
        "+621E1F8-C36C-495A-93FC-0C247A3E6E5F", " 621E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-+36C-495A-93FC-0C247A3E6E5F",
        "E621E1F8-C36C-495A-93FC-0C247A3E6E5G", "{E621E1F8-C36C-495A-93FC-0C247A3E6E5F}", "E621E1F8C36C495A93FC0C247A3E6E5F",
        "E621E1F8-C36C-495A-93FC_0C247A3E6E5F", "0x21E1F8-C36C-495A-93FC-0C247A3E6E5F", "E621E1F8-C36C-495A-93FC-0C247A3E6E-F",
        "E621E1F8-C36C-495A-93FC-0C247A3E6Eé", "", "not a uuid",
    ])
    func uuids(text: String) {
        let read = Self.read(Array("\"\(text)\"".utf8)) { $0.uuid() }
        #expect(read == UUID(uuidString: text))
    }

    @Test("random UUIDs in either case read as UUID(uuidString:) reads them")
    func randomUUIDs() {
        for index in 0..<1_000 {
            let uuid = UUID()
            let text = index.isMultiple(of: 2) ? uuid.uuidString : uuid.uuidString.lowercased()
            #expect(Self.read(Array("\"\(text)\"".utf8)) { $0.uuid() } == uuid)
        }
    }
}

