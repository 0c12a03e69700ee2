@testable import FastJSON
import Foundation
import Testing

@testable import AppStoreModels

@Suite("JSONText")
struct JSONTextTests {
    static func encoded(_ value: some Encodable) throws -> String {
        String(decoding: try AppStoreJSON.encoder().encode(value), as: UTF8.self)
    }

    /// Every ASCII character alone, and around the escaped ones, then characters past ASCII.
    static let samples: [String] = (0..<0x80).map { String(UnicodeScalar(UInt8($0))) } + [
        "", "plain", "a\"b", "a\\b", "a/b", "\u{8}\u{C}\n\r\t", "\u{0}x\u{1F}", "é", "\u{7F}\u{2028}\u{2029}", "🎉👩‍👩‍👧", "é/\"\n🎉",
    ]

    @Test("every string is written as JSONEncoder writes it", arguments: samples)
    func strings(value: String) throws {
        var json = JSONText()
        json.string(value)
        #expect(json.text == (try Self.encoded(value)))
    }

    @Test("every number is written as JSONEncoder writes a Double", arguments: [
        0, -0.0, 1, 1.5, -86_400_500, 0.1, 1e-7, Double.leastNonzeroMagnitude, 2e12, 1e15, 1e16, 1e17, 1e21, 1e22, 1.2345678901234568e20, 1_757_916_813_711.5125,
        Double.greatestFiniteMagnitude, -Double.greatestFiniteMagnitude, Double(Int64.max),
    ])
    func numbers(value: Double) throws {
        var json = JSONText()
        json.number(value)
        #expect(json.text == (try Self.encoded(value)))
        #expect(!json.failed)
    }

    @Test("a number JSONEncoder refuses marks the text failed", arguments: [Double.infinity, -Double.infinity, Double.nan])
    func refused(value: Double) {
        var json = JSONText()
        json.member("at", Date(timeIntervalSince1970: value))
        #expect(json.failed)
        #expect(throws: EncodingError.self) { try Self.encoded(Date(timeIntervalSince1970: value)) }
    }

    struct Members: Encodable {
        var a: Int64?
        var b: Bool?
        var c: [String]?
        var d: Date?
        var e: UUID?
        var f: Status?
        var g: Environment?
        var h: String?
    }

    @Test("members in order, nil ones left out, as JSONEncoder writes them", arguments: [
        Members(),
        Members(a: -1, b: true, c: [], d: Date(timeIntervalSince1970: 0.0005), e: UUID(), f: Status(rawValue: -7), g: .sandbox, h: "x"),
        Members(b: false, c: ["", "a/b", "é"], f: .active),
        Members(h: ""),
    ])
    func members(value: Members) throws {
        var json = JSONText()
        json.openObject()
        json.member("a", value.a)
        json.member("b", value.b)
        json.member("c", value.c)
        json.member("d", value.d)
        json.member("e", value.e)
        json.member("f", value.f)
        json.member("g", value.g)
        json.member("h", value.h)
        json.closeObject()
        #expect(json.text == (try Self.encoded(value)))
    }
}
