import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Testing

@testable import EntitleStorage

@Suite("StoredEventJSON")
struct StoredEventJSONTests {
    @Test("a notification's stored JSON is kept at under half its size and reads back as written")
    func notification() throws {
        let apple = AppleFacts()
        let transaction = apple.subscription(
            "com.example.monthly", original: "1000", id: "1000-3", purchase: ReferenceTime.start, expires: ReferenceTime.day(30), reason: .renewal)
        let event = LedgerEvents.notification(
            7, appUserID: "u1", type: .didRenew, transaction: transaction,
            renewalInfo: apple.renewal(original: "1000", product: "com.example.monthly", signed: ReferenceTime.start))
        var plain = event
        plain.rawSignedPayload = nil
        let json = try #require(StoredEventWriter.json(plain))
        let stored = try StoredJSON.encode(event)
        #expect(stored.hasPrefix(StoredEventJSON.prefix))
        #expect(Double(stored.utf8.count) < 0.5 * Double(json.utf8.count))
        #expect(StoredEventJSON.expand(stored) == json)
        #expect(try StoredJSON.decodeEvents([["event": .text(stored)]]) == [plain])
    }

    @Test("JSON too short to gain is stored as written, and JSON stored before reads as it is")
    func asWritten() {
        let json = #"{"id":"00000000-0000-4000-8000-000000000001","payload":{"appTrialStarted":{"at":0}}}"#
        #expect(StoredEventJSON.compact(json) == json)
        #expect(StoredEventJSON.expand(json) == json)
    }

    /// libFuzzer's find: text starting with the prefix, stored as written, read as a damaged compact form.
    @Test("text that starts with the compact prefix reads back as written", arguments: [#"~1{"apzUse"#, "~1", "~1eJwDAAAAAAE="])
    func prefixed(text: String) {
        let stored = StoredEventJSON.compact(text)
        #expect(stored != text)
        #expect(StoredEventJSON.expand(stored) == text)
    }

    @Test("a damaged compact form is a corrupt record, not other JSON", arguments: ["~1", "~1AAAA", "~1eJwDAAAAAAE=", "~1!!"])
    func damaged(stored: String) {
        #expect(StoredEventJSON.expand(stored) == nil)
        #expect(throws: StorageError.self) { try StoredJSON.decodeEvents([["event": .text(stored)]]) }
    }
}
