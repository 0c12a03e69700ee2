import EntitleAnalytics
import EntitleCore
import FastJSON
import Foundation
import Testing

@testable import EntitleStorage

/// A subscriber's analytics cells as stored: written directly as JSON (a string table and six integers
/// a cell), read back with `JSONCursor` or `JSONDecoder`, the earlier form (an object a cell) too.
@Suite("StoredAnalyticsCells")
struct StoredAnalyticsCellsTests {
    static let awkward = ["", "com.example.family.monthly", "quote\"d", "back\\slash", "line\nbreak\ttab\r", "\u{01}\u{1F}", "ünïcødé 🎉", "/slash", "\u{7F}"]

    @Test("cells survive the round trip, whatever their strings hold", arguments: awkward)
    func roundTrip(text: String) throws {
        let cells: AnalyticsCells = [
            AnalyticsKey(day: 20_089, metric: .revenue, product: text, currency: "USD", cohort: "2025-01"): 7_990,
            AnalyticsKey(day: -3, metric: .activePaid, product: "p", currency: text, cohort: text): -1,
            AnalyticsKey(day: 0, metric: .refunds, product: text): Int64.max,
            AnalyticsKey(day: Int(Int32.max), metric: .refunded, cohort: text): Int64.min,
            AnalyticsKey(day: 20_089, metric: .revenue, product: text, currency: "USD", cohort: "2025-01", environment: .sandbox): 990,
        ]
        let json = StoredAnalyticsCells.encode(cells)
        #expect(try StoredAnalyticsCells.decode(json, appUserID: "u") == cells)
        #expect(try StoredAnalyticsCells.decoded(json, appUserID: "u") == cells)
        // Read without JSONDecoder unless a string needs an escape.
        let escaped = text.utf8.contains { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }
        #expect(StoredAnalyticsCells.read(json) == (escaped ? nil : cells))
        // Any JSON reader reads the same strings back, each once.
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let strings = try #require(parsed["s"] as? [String])
        #expect(strings.filter { $0 == text }.count == 1)
        #expect(Set(strings) == Set(cells.keys.flatMap { [$0.storedMetric, $0.product, $0.currency, $0.cohort] }))
        #expect((parsed["c"] as? [Any])?.count == cells.count * 6)
    }

    @Test("a subscriber's many distinct strings, in every field, each written as it is: more than the writer quotes once")
    func manyStrings() throws {
        var cells = AnalyticsCells()
        for index in 0..<40 {
            let text = Self.awkward[index % Self.awkward.count] + String(index)
            cells[AnalyticsKey(day: index, metric: .revenue, product: text, currency: "USD", cohort: "2025-01")] = Int64(index) - 20
            cells[AnalyticsKey(day: index, metric: .refunds, product: "USD", currency: text, cohort: text)] = Int64(index) * 1_000_003
        }
        let json = StoredAnalyticsCells.encode(cells)
        #expect(try StoredAnalyticsCells.decode(json, appUserID: "u") == cells)
        #expect(try StoredAnalyticsCells.decoded(json, appUserID: "u") == cells)
    }

    @Test("a subscriber's usual cells take under a quarter of the earlier form's bytes")
    func shorter() throws {
        var cells = AnalyticsCells()
        for month in 0..<12 {
            let day = 20_089 + month * 30
            cells[AnalyticsKey(day: day, metric: .revenue, product: "com.screentimerewards.individual.monthly", currency: "USD")] = 7_990
            cells[AnalyticsKey(day: day, metric: .renewals, product: "com.screentimerewards.individual.monthly")] = 1
            cells[AnalyticsKey(day: day, metric: .cohortRevenue, currency: "USD", cohort: "2025-01")] = 7_990
        }
        let earlier = cells.map { key, value in
            #"{"d":\#(key.day),"m":"\#(key.metric.rawValue)","p":"\#(key.product)","c":"\#(key.currency)","h":"\#(key.cohort)","v":\#(value)}"#
        }.joined(separator: ",")
        let written = StoredAnalyticsCells.encode(cells)
        #expect(written.utf8.count * 4 < earlier.utf8.count + 2)
        #expect(try StoredAnalyticsCells.decode("[" + earlier + "]", appUserID: "u") == cells)
        #expect(try StoredAnalyticsCells.decode(written, appUserID: "u") == cells)
    }

    @Test("no cells are an empty table, and an empty array as earlier versions wrote them")
    func empty() throws {
        #expect(StoredAnalyticsCells.encode([:]) == #"{"s":[],"c":[]}"#)
        #expect(try StoredAnalyticsCells.decode(#"{"s":[],"c":[]}"#, appUserID: "u").isEmpty)
        #expect(try StoredAnalyticsCells.decode("[]", appUserID: "u").isEmpty)
    }

    @Test("a table read without JSONDecoder is what JSONDecoder reads, whatever the spacing; keys in another order go to JSONDecoder", arguments: [
        #" { "s" : [ "revenue" , "p1", "USD", "2025-01", "" ] , "c" : [ 20100, 0, 1, 2, 3, -5, 1, 0, 4, 4, 4, 9223372036854775807 ] } "#,
        #"{"c":[20100,0,1,2,3,-5,1,0,4,4,4,9223372036854775807],"s":["revenue","p1","USD","2025-01",""]}"#,
        #"{"s":["revenue","p\/1","USD","2025-01",""],"c":[20100,0,1,2,3,-5,1,0,4,4,4,9223372036854775807]}"#,
    ])
    func tableEitherWay(text: String) throws {
        let expected: AnalyticsCells = [
            AnalyticsKey(day: 20_100, metric: .revenue, product: text.contains(#"p\/1"#) ? "p/1" : "p1", currency: "USD", cohort: "2025-01"): -5,
            AnalyticsKey(day: 1, metric: .revenue): Int64.max,
        ]
        #expect(try StoredAnalyticsCells.decoded(text, appUserID: "u") == expected)
        #expect(try StoredAnalyticsCells.decode(text, appUserID: "u") == expected)
        if let read = StoredAnalyticsCells.read(text) { #expect(read == expected) }
        #expect((StoredAnalyticsCells.read(text) != nil) == text.hasPrefix(" {"))
    }

    @Test("cells written by Foundation's encoder, with keys in any order and escaped slashes, still read")
    func earlierSpelling() throws {
        let text = #"[{"v":12990,"h":"","c":"USD","p":"com.app\/family","m":"revenue","d":20100}]"#
        #expect(try StoredAnalyticsCells.decode(text, appUserID: "u")
            == [AnalyticsKey(day: 20_100, metric: .revenue, product: "com.app/family", currency: "USD"): 12_990])
    }

    @Test("cells read without JSONDecoder are those JSONDecoder reads, whatever the spacing and key order")
    func sameEitherWay() throws {
        let text = #" [ {"v": -5, "h":"2025-01", "c":"USD", "p":"p1", "m":"revenue", "d":20100} ,{"d":1,"m":"refunds","p":"","c":"","h":"","v":9223372036854775807}] "#
        let expected: AnalyticsCells = [
            AnalyticsKey(day: 20_100, metric: .revenue, product: "p1", currency: "USD", cohort: "2025-01"): -5,
            AnalyticsKey(day: 1, metric: .refunds): Int64.max,
        ]
        #expect(try StoredAnalyticsCells.decode(text, appUserID: "u") == expected)
    }

    @Test("damaged cells or an unknown metric are a corrupt record", arguments: [
        "", "[", "{}", #"[{"d":1,"m":"revenue","p":"","c":"","h":""}]"#, #"[{"d":1.5,"m":"revenue","p":"","c":"","h":"","v":1}]"#,
        #"[{"d":1,"m":"revenue","p":"","c":"","h":"","v":1}] ]"#, #"[{"d":1,"m":"unheard-of","p":"","c":"","h":"","v":1}]"#,
        #"{"s":["revenue",""],"c":[1,0,1,1,1]}"#, #"{"s":["revenue",""],"c":[1,0,1,1,2,1]}"#, #"{"s":["revenue",""],"c":[1,0,1,1,-1,1]}"#,
        #"{"s":["unheard-of",""],"c":[1,0,1,1,1,1]}"#, #"{"s":["revenue",""],"c":[1.5,0,1,1,1,1]}"#, #"{"s":["revenue",""]}"#,
        #"{"s":["revenue",1],"c":[]}"#, #"{"s":["revenue",""],"c":[1,0,1,1,1,9223372036854775808]}"#,
    ])
    func corrupt(text: String) {
        #expect(throws: StorageError(.corruptRecord, "")) { try StoredAnalyticsCells.decode(text, appUserID: "u") }
    }
}
