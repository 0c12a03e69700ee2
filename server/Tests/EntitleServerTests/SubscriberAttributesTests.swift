import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Subscriber attributes")
struct SubscriberAttributesTests {
    static func patch(_ harness: ServerHarness, _ client: any TestClientProtocol, _ id: String, _ values: [String: String?]) async throws -> TestResponse {
        var headers = HTTPFields()
        headers[.authorization] = "Bearer \(harness.publicKey(id))"
        headers[.contentType] = "application/json"
        return try await client.execute(
            uri: "/v1/subscribers/\(id)/attributes", method: .patch, headers: headers, body: ServerHarness.json(SetAttributesRequest(values)))
    }

    @Test("seed 001: with the reader's time zone, 2 conversations a month reset at their midnight, not UTC's")
    func localMidnight() async throws {
        try await ServerHarness.run(example: "Epilogue", bundleID: "com.epilogue.app") { harness, client in
            // 31 January 23:00 in Auckland (UTC+13) is 10:00 UTC.
            harness.clock.set(ReferenceTime.instant("2026-01-31T10:00:00Z"))
            let set = try await Self.patch(harness, client, "kiwi", ["timeZone": "Pacific/Auckland"])
            #expect(set.status == .ok)
            #expect(try ServerHarness.decode(SubscriberResponse.self, set).attributes["timeZone"] == "Pacific/Auckland")
            for (reader, index) in [("kiwi", 0), ("kiwi", 1), ("utc-reader", 0), ("utc-reader", 1)] {
                try await harness.post(client, "/v1/subscribers/\(reader)/usage", key: harness.publicKey(reader),
                                       body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c\(index)")))
            }
            // 00:30 on 1 February in Auckland; still 31 January in UTC.
            harness.clock.set(ReferenceTime.instant("2026-01-31T11:30:00Z"))
            try await harness.post(client, "/v1/subscribers/kiwi/usage", key: harness.publicKey("kiwi"),
                                   body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c2")))
            let denied = try await harness.post(client, "/v1/subscribers/utc-reader/usage", key: harness.publicKey("utc-reader"),
                                                body: ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "c2")), expect: .conflict)
            #expect(ServerHarness.errorCode(denied) == "usage.quotaExhausted")
            let timeline = String(buffer: try await harness.get(client, "/v1/subscribers/kiwi/events", key: ServerHarness.secretKey).body)
            #expect(timeline.contains("time_zone_set"))
        }
    }

    @Test("email, display name and locale are set, cleared with null, and shown on the timeline")
    func setAndClear() async throws {
        try await ServerHarness.run { harness, client in
            let set = try ServerHarness.decode(SubscriberResponse.self, try await Self.patch(
                harness, client, "parent-1", ["email": "ana@example.com", "displayName": "Ana", "locale": "pt-BR"]))
            let utc = try #require(TimeZone(identifier: "UTC")).identifier
            #expect(set.attributes == ["email": "ana@example.com", "displayName": "Ana", "locale": "pt-BR", "timeZone": utc])
            harness.clock.set(ReferenceTime.start.addingTimeInterval(60))
            let cleared = try ServerHarness.decode(SubscriberResponse.self, try await Self.patch(harness, client, "parent-1", ["email": nil]))
            #expect(cleared.attributes["email"] == nil && cleared.attributes["displayName"] == "Ana")
            let timeline = String(buffer: try await harness.get(client, "/v1/subscribers/parent-1/events", key: ServerHarness.secretKey).body)
            #expect(timeline.replacingOccurrences(of: "\\/", with: "/").contains("attributes_set/displayName,email,locale"))
            #expect(try await harness.store.projection(appUserID: "parent-1")
                == SubscriberFacts.fold(appUserID: "parent-1", events: try await harness.store.events(appUserID: "parent-1")))
        }
    }

    @Test("an attribute that breaks its rule, documented or the app's own, is 400 request.invalid naming it", arguments: [
        ["timeZone": "Mars/Olympus"], ["email": "not-an-email"], ["displayName": ""], ["locale": "de DE"], ["9lives": "x"], ["shoe size": "42"],
        ["role": String(repeating: "é", count: 251)], ["role": "a\u{7}b"], [:],
    ] as [[String: String?]])
    func refused(_ values: [String: String?]) async throws {
        try await ServerHarness.run { harness, client in
            let response = try await Self.patch(harness, client, "parent-2", values)
            #expect(response.status == .badRequest)
            #expect(ServerHarness.errorCode(response) == "request.invalid")
            if let key = values.keys.first { #expect(String(buffer: response.body).contains(key)) }
        }
    }

    @Test("the app's own attributes: set, cleared with null, bounded in number, and matched by the catalog's targeting (docs/growth.md's role example)")
    func customAttributes() async throws {
        var catalog = Fixtures.exampleCatalog("PantryPal")
        catalog.targeting.insert(TargetingRule(offeringID: "monthly-first", attributes: ["role": ["teacher", "school"]]), at: 0)
        try await ServerHarness.run(example: "PantryPal", bundleID: "com.pantrypal.app", catalog: catalog) { harness, client in
            func offering(_ id: String) async throws -> String {
                try ServerHarness.decode(
                    OfferingsResponse.self, try await harness.get(client, "/v1/subscribers/\(id)/offerings", key: harness.publicKey(id))).currentOfferingID
            }
            #expect(try await offering("teacher-1") == "default")
            let set = try ServerHarness.decode(SubscriberResponse.self, try await Self.patch(harness, client, "teacher-1", ["role": "teacher", "school.district": "North"]))
            #expect(set.attributes["role"] == "teacher" && set.attributes["school.district"] == "North")
            #expect(try await offering("teacher-1") == "monthly-first")
            harness.clock.set(ReferenceTime.start.addingTimeInterval(60))
            _ = try await Self.patch(harness, client, "teacher-1", ["role": "parent"])
            #expect(try await offering("teacher-1") == "default")
            harness.clock.set(ReferenceTime.start.addingTimeInterval(120))
            let cleared = try ServerHarness.decode(SubscriberResponse.self, try await Self.patch(harness, client, "teacher-1", ["role": nil]))
            #expect(cleared.attributes["role"] == nil && cleared.attributes["school.district"] == "North")

            // At most 50 of the app's own: the 51st is refused, one more after clearing one is taken.
            let fifty = Dictionary(uniqueKeysWithValues: (0..<49).map { ("tag\($0)", Optional("x")) })
            #expect(try await Self.patch(harness, client, "teacher-1", fifty).status == .ok)
            let over = try await Self.patch(harness, client, "teacher-1", ["one.more": "x"])
            #expect(over.status == .badRequest && ServerHarness.errorCode(over) == "request.invalid")
            #expect(String(buffer: over.body).contains("at most 50"))
            harness.clock.set(ReferenceTime.start.addingTimeInterval(180))
            #expect(try await Self.patch(harness, client, "teacher-1", ["tag0": nil, "one.more": "x", "email": "t@example.com"]).status == .ok)
        }
    }
}
