import EntitleCore
import Foundation
import Testing

@Suite("StringIdentifier")
struct StringIdentifierTests {
    static func json(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test("an identifier encodes as its text and decodes from it")
    func text() throws {
        #expect(try Self.json(AppUserID("reader@example.com")) == #""reader@example.com""#)
        #expect(try JSONDecoder().decode(ProductID.self, from: Data(#""com.example.monthly""#.utf8)) == "com.example.monthly")
        #expect(try Self.json([OriginalTransactionID("2000"), "1000"].sorted()) == #"["1000","2000"]"#)
    }

    @Test("a dictionary keyed by identifiers is a JSON object, as one keyed by strings was")
    func dictionaryKeys() throws {
        let typed: [AppUserID: Int] = ["b": 2, "a": 1, "$anon:x": 3]
        let json = try Self.json(typed)
        #expect(json == #"{"$anon:x":3,"a":1,"b":2}"#)
        #expect(json == (try Self.json(["b": 2, "a": 1, "$anon:x": 3] as [String: Int])))
        #expect(try JSONDecoder().decode([AppUserID: Int].self, from: Data(json.utf8)) == typed)
    }

    @Test("a projection stored with string keys reads back with typed ones")
    func storedProjection() throws {
        var facts = SubscriberFacts(appUserID: "parent")
        facts.households["household-1"] = SubscriberFacts.Membership(joinedAt: Date(timeIntervalSince1970: 1_000))
        facts.recordPurchaseRequest(productID: "com.example.family", at: Date(timeIntervalSince1970: 2_000))
        let encoded = try JSONEncoder().encode(facts)
        let object = try #require(try JSONSerialization.jsonObject(with: encoded) as? [String: Any])
        #expect((object["households"] as? [String: Any])?.keys.sorted() == ["household-1"])
        #expect((object["pendingPurchases"] as? [String: Any])?.keys.sorted() == ["com.example.family"])
        #expect(try JSONDecoder().decode(SubscriberFacts.self, from: encoded) == facts)
    }

    @Test("anonymous IDs are told apart by their prefix", arguments: [
        ("$anon:6F9619FF-8B86-D011-B42D-00CF4FC964FF", true), ("reader", false), ("anon:x", false), ("", false),
    ])
    func anonymous(id: String, expected: Bool) {
        #expect(AppUserID(id).isAnonymous == expected)
    }
}
