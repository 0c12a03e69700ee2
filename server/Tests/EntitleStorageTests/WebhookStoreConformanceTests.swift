import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// One suite, every engine: what any WebhookStore must guarantee.
@Suite("WebhookStore conformance")
struct WebhookStoreConformanceTests {
    static func day(_ n: Double) -> Date { ReferenceTime.day(n) }

    static func endpoint(_ id: String, app: BundleID = "com.example.one", types: [String] = []) -> WebhookEndpoint {
        WebhookEndpoint(id: id, app: app, url: "http://127.0.0.1:1/\(id)", eventTypes: types, secrets: ["whsec_\(id)"], createdAt: day(0))
    }

    static func delivery(_ event: String, to endpoint: String = "e1", user: AppUserID = "u1", at: Date = day(1)) -> WebhookDelivery {
        WebhookDelivery(endpointID: endpoint, eventID: event, eventType: "renewal", appUserID: user, occurredAt: at, payload: "{\"id\":\"\(event)\"}",
                        nextAttemptAt: at, createdAt: at)
    }

    @Test("endpoints are the app's own: added, listed oldest first, updated, removed; another app sees none", arguments: StorageEngine.allCases)
    func endpoints(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let one = root.forApp("com.example.one").webhookStore()
            try await one.addEndpoint(Self.endpoint("e1", types: ["renewal", "refund"]))
            var second = Self.endpoint("e2")
            second.createdAt = Self.day(1)
            try await one.addEndpoint(second)
            #expect(try await one.endpoints(includingRemoved: false).map(\.id) == ["e1", "e2"])
            #expect(try await one.endpoint(id: "e1")?.eventTypes == ["renewal", "refund"])
            #expect(try await root.forApp("com.example.two").webhookStore().endpoints(includingRemoved: true).isEmpty)
            #expect(try await root.forApp("com.example.two").webhookStore().endpoint(id: "e1") == nil)
            second.secrets = ["new", "old"]
            second.removedAt = Self.day(2)
            try await one.updateEndpoint(second)
            #expect(try await one.endpoints(includingRemoved: false).map(\.id) == ["e1"])
            #expect(try await one.endpoint(id: "e2")?.secrets == ["new", "old"])
        }
    }

    @Test("a batch is stored whole with the cursor it moves, or not at all when the cursor moved first", arguments: StorageEngine.allCases)
    func batchAndCursor(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let ledger = root.forApp("com.example.one")
            let store = ledger.webhookStore()
            try await store.addEndpoint(Self.endpoint("e1"))
            let events = LedgerStoreConformanceTests.history(user: "u1", original: "1000", seedBase: 0)
            for event in events { _ = try await ledger.append(event) }
            let read = try await ledger.consumerEvents("webhooks", limit: 5, since: .distantPast)
            let last = try #require(read.events.last?.sequence)
            let snapshot = WebhookSnapshot(facts: SubscriberFacts(appUserID: "u1"), at: Self.day(3))
            let batch = WebhookBatch(
                cursor: ("webhooks", read.position, last), deliveries: [Self.delivery("evt_1"), Self.delivery("evt_1"), Self.delivery("evt_2")],
                snapshots: ["u1": snapshot], schedule: [ScheduledEvent(appUserID: "u1", kind: .accessChange, periodKey: "k", dueAt: Self.day(9))],
                firedAt: Self.day(3))
            #expect(try await store.publish(batch))
            // The same step again (another instance, a repeat after a crash) stores nothing.
            #expect(try await store.publish(batch) == false)
            #expect(try await store.deliveries(endpointID: nil, appUserID: nil, status: nil, limit: 10).map(\.eventID) == ["evt_2", "evt_1"])
            #expect(try await store.snapshots(appUserIDs: ["u1", "u2"]) == ["u1": snapshot])
            #expect(try await store.snapshots(appUserIDs: []).isEmpty)
            #expect(try await ledger.consumerEvents("webhooks", limit: 5, since: .distantPast).position == last)
            #expect(try await store.dueSchedule(at: Self.day(9), limit: 10).map(\.periodKey) == ["k"])
            #expect(try await store.dueSchedule(at: Self.day(8), limit: 10).isEmpty)
            #expect(try await root.forApp("com.example.two").webhookStore().snapshots(appUserIDs: ["u1"]).isEmpty)
        }
    }

    @Test("a schedule entry fires once: the step that fires it second stores nothing", arguments: StorageEngine.allCases)
    func firesOnce(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one").webhookStore()
            try await store.addEndpoint(Self.endpoint("e1"))
            let entry = ScheduledEvent(appUserID: "u1", kind: .renewalReminder, periodKey: "2000:1", dueAt: Self.day(5))
            let other = ScheduledEvent(appUserID: "u2", kind: .accessChange, periodKey: "2000:2", dueAt: Self.day(4))
            let later = ScheduledEvent(appUserID: "u1", kind: .accessChange, periodKey: "2000:3", dueAt: Self.day(7))
            #expect(try await store.publish(WebhookBatch(schedule: [entry, entry, other, later], firedAt: Self.day(1))))
            #expect(try await store.dueSchedule(appUserIDs: ["u1", "u2"], by: Self.day(6)) == [other, entry])
            #expect(try await store.dueSchedule(appUserIDs: ["u3"], by: Self.day(6)).isEmpty)
            let due = try await store.dueSchedule(appUserIDs: ["u1"], by: Self.day(6))
            #expect(due == [entry])
            let first = WebhookBatch(deliveries: [Self.delivery("evt_r1")], fired: due, firedAt: Self.day(6))
            var second = first
            second.deliveries = [Self.delivery("evt_r2")]
            #expect(try await store.publish(first))
            #expect(try await store.publish(second) == false)
            #expect(try await store.deliveries(endpointID: "e1", appUserID: nil, status: nil, limit: 10).map(\.eventID) == ["evt_r1"])
            #expect(try await store.dueSchedule(at: Self.day(30), limit: 10) == [other, later])
        }
    }

    @Test("due deliveries: the first pending of each endpoint and subscriber, of endpoints not resting; attempts move them on", arguments: StorageEngine.allCases)
    func dueInOrder(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one").webhookStore()
            try await store.addEndpoint(Self.endpoint("e1"))
            try await store.addEndpoint(Self.endpoint("e2"))
            let deliveries = [
                Self.delivery("a1", user: "a"), Self.delivery("a2", user: "a"), Self.delivery("b1", user: "b"), Self.delivery("a1", to: "e2", user: "a"),
            ]
            #expect(try await store.publish(WebhookBatch(deliveries: deliveries, firedAt: Self.day(1))))
            let due = try await store.dueDeliveries(at: Self.day(1), limit: 10)
            #expect(due.map { "\($0.endpointID)/\($0.eventID)" } == ["e1/a1", "e1/b1", "e2/a1"])
            #expect(try await store.dueDeliveries(at: Self.day(0), limit: 10).isEmpty)

            // a1 fails on e1: retried later, the endpoint rests; a2 waits behind it.
            let a1 = try #require(due.first)
            try await store.recordAttempt(
                WebhookAttempt(deliveryID: a1.id, attempt: 1, at: Self.day(1), status: 503, latencyMilliseconds: 4, error: "HTTP 503"),
                endpointID: "e1", retryAt: Self.day(2), pauseUntil: Self.day(1.5))
            #expect(try await store.endpoint(id: "e1")?.consecutiveFailures == 1)
            #expect(try await store.dueDeliveries(at: Self.day(1.2), limit: 10).map { "\($0.endpointID)/\($0.eventID)" } == ["e2/a1"])
            #expect(try await store.dueDeliveries(at: Self.day(1.6), limit: 10).map { "\($0.endpointID)/\($0.eventID)" } == ["e1/b1", "e2/a1"])
            let retried = try #require(try await store.dueDeliveries(at: Self.day(2), limit: 10).first)
            #expect(retried.eventID == "a1" && retried.attempts == 1 && retried.lastStatus == 503)
            try await store.recordAttempt(
                WebhookAttempt(deliveryID: a1.id, attempt: 2, at: Self.day(2), status: 200, latencyMilliseconds: 3, error: nil),
                endpointID: "e1", retryAt: nil, pauseUntil: nil)
            #expect(try await store.endpoint(id: "e1")?.consecutiveFailures == 0)
            #expect(try await store.dueDeliveries(at: Self.day(2), limit: 10).map { "\($0.endpointID)/\($0.eventID)" } == ["e1/a2", "e1/b1", "e2/a1"])
            let attempts = try await store.attempts(deliveryID: a1.id)
            #expect(attempts.map(\.status) == [503, 200])
            #expect(attempts.map(\.latencyMilliseconds) == [4, 3])
            #expect(try await store.delivery(id: a1.id)?.status == .delivered)
            #expect(try await store.delivery(id: a1.id)?.deliveredAt == Self.day(2))
        }
    }

    @Test("a delivery that fails for good is kept, stops blocking its subscriber's next, and a replay makes it pending again", arguments: StorageEngine.allCases)
    func failedAndReplayed(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one").webhookStore()
            try await store.addEndpoint(Self.endpoint("e1"))
            #expect(try await store.publish(WebhookBatch(deliveries: [Self.delivery("a1"), Self.delivery("a2")], firedAt: Self.day(1))))
            let first = try #require(try await store.dueDeliveries(at: Self.day(1), limit: 10).first)
            try await store.recordAttempt(
                WebhookAttempt(deliveryID: first.id, attempt: 12, at: Self.day(4), status: nil, latencyMilliseconds: 10_000, error: "timeout"),
                endpointID: "e1", retryAt: nil, pauseUntil: nil)
            #expect(try await store.delivery(id: first.id)?.status == .failed)
            #expect(try await store.dueDeliveries(at: Self.day(4), limit: 10).map(\.eventID) == ["a2"])
            #expect(try await store.deliveryCounts() == [.failed: 1, .pending: 1])
            #expect(try await store.replay(endpointID: "e1", ids: nil, at: Self.day(5)) == 1)
            #expect(try await store.replay(endpointID: "e1", ids: [first.id], at: Self.day(5)) == 0)
            #expect(try await store.dueDeliveries(at: Self.day(5), limit: 10).map(\.eventID) == ["a1"])
            #expect(try await root.forApp("com.example.two").webhookStore().replay(endpointID: "e1", ids: nil, at: Self.day(5)) == 0)
        }
    }
}
