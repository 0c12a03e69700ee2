import EntitleAnalytics
import Foundation
import Testing

@testable import EntitleStorage

/// A subscriber's analytics cells as stored: written directly as JSON, read back with `JSONDecoder`.
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
        ]
        let json = StoredAnalyticsCells.encode(cells)
        #expect(try StoredAnalyticsCells.decode(json, appUserID: "u") == cells)
        // Any JSON reader reads the same strings back.
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(parsed.count == cells.count)
        #expect(parsed.contains { $0["p"] as? String == text && $0["v"] as? Int64 == 7_990 })
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
        let parsed = try #require(JSONSerialization.jsonObject(with: Data(json.utf8)) as? [[String: Any]])
        #expect(Set(parsed.compactMap { $0["c"] as? String }) == Set(cells.keys.map(\.currency)))
    }

    @Test("no cells are an empty array")
    func empty() throws {
        #expect(StoredAnalyticsCells.encode([:]) == "[]")
        #expect(try StoredAnalyticsCells.decode("[]", appUserID: "u").isEmpty)
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
    ])
    func corrupt(text: String) {
        #expect(throws: StorageError(.corruptRecord, "")) { try StoredAnalyticsCells.decode(text, appUserID: "u") }
    }
}
