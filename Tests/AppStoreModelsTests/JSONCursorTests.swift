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
}
