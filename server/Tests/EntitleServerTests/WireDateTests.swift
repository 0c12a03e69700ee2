import EntitleWire
import Foundation
import Testing

/// The API's dates, read strictly (schemathesis found `12:99` accepted as the next hour).
@Suite("WireDate")
struct WireDateTests {
    @Test("a date-time as the API writes it, in UTC or with an offset, names its instant")
    func accepted() throws {
        #expect(WireDate.parse("2026-01-01T00:00:00Z") == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(WireDate.parse("2026-01-01T01:30:00+01:30") == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(WireDate.parse("2025-12-31T23:00:00-01:00") == Date(timeIntervalSince1970: 1_767_225_600))
        #expect(WireDate.parse("2024-02-29T12:00:00Z") != nil, "a leap day that exists")
        // What the API's encoder writes, the decoder reads back.
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let text = String(decoding: try WireJSON.encoder.encode([now]), as: UTF8.self)
        #expect(try WireJSON.decoder.decode([Date].self, from: Data(text.utf8)) == [now])
    }

    @Test("anything else is refused, never rolled over", arguments: [
        "2024-01-01T12:99:00Z", "2024-01-01T24:00:00Z", "2024-01-01T00:00:60Z", "2026-02-30T00:00:00Z", "2025-02-29T00:00:00Z",
        "2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T00:00:00", "2026-01-01", "2026-01-01T00:00:00.5Z",
        "2026-01-01T00:00:00+24:00", "2026-01-01T00:00:00+01:60", "2026-01-01 00:00:00Z", "+2026-01-01T00:00:00Z", "", "now",
    ])
    func refused(text: String) {
        #expect(WireDate.parse(text) == nil)
        #expect(throws: DecodingError.self) { try WireJSON.decoder.decode([Date].self, from: Data("[\"\(text)\"]".utf8)) }
    }
}
