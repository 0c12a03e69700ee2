import EntitleCore
import Foundation
import Testing

@Suite("Price")
struct PriceTests {
    @Test("parses display prices and converts them to Apple's milliunits", arguments: [
        ("7.99", Int64(7990)), ("67.00", 67000), ("67", 67000), ("0", 0), ("12.5", 12500), ("0.001", 1), ("1999.99", 1_999_990),
    ])
    func milliunits(text: String, expected: Int64) {
        #expect(Price(text)?.milliunits == expected)
    }

    @Test("rejects what is not a plain decimal", arguments: ["4,99", "$7.99", "", ".99", "7.", "7.9999", "1e3", "-1", " 7.99", "7.99.1"])
    func rejects(text: String) {
        #expect(Price(text) == nil)
    }

    @Test("formats with at least two decimals and the currency")
    func formats() {
        #expect(Price("67", currency: "USD")?.description == "67.00 USD")
        #expect(Price("12.5")?.description == "12.50")
        #expect(Price("7.99", currency: "EUR")?.description == "7.99 EUR")
    }
}
