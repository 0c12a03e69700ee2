import AppStoreModels
import AsyncHTTPClient
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import Testing

/// `DELETE /v1/subscribers/{appUserID}` end to end on an SQLite file: the customer's data unreadable,
/// after a restart too; analytics and the transaction export add up as before; webhooks told.
@Suite("Customer deletion")
struct CustomerDeletionTests {
    static let family = "com.screentimerewards.family.monthly"
    static let individual = "com.screentimerewards.individual.monthly"
    static let jane = "jane@example.com"
    static let personal = ["jane@example.com", "Jane Doe", "Jane's iPad"]
    static let range = "from=2026-01-01&to=2026-03-31"

    /// A server over the SQLite file at `path`, as a restart finds it.
    static func serving(
        _ path: String, _ pki: TestPKI, _ clock: TestClock, _ keys: APIKeys, _ authority: LocalCertificateAuthority,
        _ body: @Sendable (ServerHarness, any TestClientProtocol) async throws -> Void
    ) async throws {
        let store = try await SQLiteLedgerStore.open(path: path)
        do {
            let app = try await ServerHarness.application(store: store, pki: pki, clock: clock, keys: keys, alsoTrusting: [authority.root])
            let harness = ServerHarness(
                pki: pki, apple: AppleFacts(bundleID: "com.screentimerewards"), clock: clock, store: store.forApp("com.screentimerewards"), keys: keys,
                bundleID: "com.screentimerewards", authority: authority, catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
            try await app.test(.live) { client in try await body(harness, client) }
        } catch {
            await store.close()
            throw error
        }
        await store.close()
    }

    @Test("a deleted customer: nothing names her, after a restart too; analytics and the export add up as before; her webhooks end with subscriber_deleted")
    func deletion() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-deletion-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("entitle.sqlite").path
        let (pki, clock) = (try TestPKI.shared(), TestClock())
        let authority = try TestAuthority.shared()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let anonymous = "$anon:0a0a0a0a-0a0a-4a0a-8a0a-0a0a0a0a0a0a"

        let recorded = NIOLockedValueBox<Figures?>(nil)
        try await WebhookReceiver.run { url, receiver in
            try await Self.serving(path, pki, clock, keys, authority) { harness, client in
                let service = harness.service()
                try await service.webhooks.webhookStore.addEndpoint(WebhookDeliveryTests.endpoint(url, app: harness.bundleID, at: ReferenceTime.day(1)))
                var store = harness.localStore()
                clock.set(ReferenceTime.day(2))
                _ = try await harness.get(client, "/v1/subscribers/\(anonymous)", key: harness.publicKey(anonymous))
                _ = try await harness.post(
                    client, "/v1/subscribers/\(anonymous)/alias", key: ServerHarness.secretKey, body: ServerHarness.json(AliasRequest(appUserID: Self.jane)))
                let bought = try await harness.buy(client, &store, Self.family, as: Self.jane, at: clock.now)
                try await harness.buy(client, &store, Self.individual, as: "bob", at: clock.now)
                _ = try await harness.patch(
                    client, "/v1/subscribers/\(Self.jane)/attributes", key: harness.publicKey(Self.jane),
                    body: ServerHarness.json(SetAttributesRequest(["email": Self.jane, "displayName": "Jane Doe", "timeZone": "Europe/Berlin"])))
                _ = try await harness.post(
                    client, "/v1/subscribers/\(Self.jane)/items", key: harness.publicKey(Self.jane),
                    body: ServerHarness.json(RegisterItemRequest(limit: "childDevices", id: "ipad-1", name: "Jane's iPad")))
                try await WebhookDeliveryTests.pass(service)
                #expect(try receiver.accepted.map(WebhookDeliveryTests.event).contains { $0.appUserID == Self.jane })
                clock.set(ReferenceTime.day(20))
                let before = try await Self.figures(harness, client, deleted: false)

                let answer = try ServerHarness.decode(
                    SubscriberDeletionResponse.self, try await harness.delete(client, "/v1/subscribers/\(Self.jane)", key: harness.publicKey(Self.jane)))
                #expect(answer.deleted && answer.appUserID == Self.jane && answer.events >= 5 && answer.mentions == 1)
                let again = try ServerHarness.decode(
                    SubscriberDeletionResponse.self, try await harness.delete(client, "/v1/subscribers/\(Self.jane)", key: ServerHarness.secretKey))
                #expect(!again.deleted)
                // Told once, by name; the stored payload forgets it once delivered. Nothing more about her.
                try await WebhookDeliveryTests.pass(service)
                let deletions = try receiver.accepted.map(WebhookDeliveryTests.event).filter { $0.type == .subscriberDeleted }
                #expect(deletions.count == 1 && deletions.first?.appUserID == Self.jane)
                let stored = try await service.webhooks.webhookStore.deliveries(endpointID: nil, appUserID: nil, status: nil, limit: 1_000)
                #expect(stored.allSatisfy { !Self.personal.contains(where: $0.payload.contains) })
                #expect(stored.contains { $0.eventType == "subscriber_deleted" && $0.payload == WebhookDelivery.redactedPayload })

                // Her purchase, analytics and export rows are the pseudonym's.
                #expect(try await harness.subscriber(client, "bob").entitlements.contains { $0.isActive })
                #expect(try await Self.figures(harness, client) == before)
                let owner = try #require(try await harness.store.owner(originalTransactionID: OriginalTransactionID(bought.originalTransactionID)))
                #expect(owner.isErased)
                recorded.withLockedValue { $0 = before }
            }
        }

        let totals = try #require(recorded.withLockedValue { $0 })
        // Stopped: nothing in the files names her (the WAL checkpointed into the database and removed).
        for file in try FileManager.default.contentsOfDirectory(atPath: folder.path) {
            let bytes = try Data(contentsOf: folder.appendingPathComponent(file))
            for value in Self.personal {
                if let range = bytes.range(of: Data(value.utf8)) {
                    let context = bytes[max(0, range.lowerBound - 150)..<min(bytes.count, range.upperBound + 150)]
                    Issue.record("\(value) in \(file): \(String(decoding: context.map { $0 < 32 || $0 > 126 ? 46 : $0 }, as: UTF8.self))")
                }
            }
        }
        // Restarted: the same figures; nothing of her in the ledger read back; her ID reaches a new, empty subscriber.
        try await Self.serving(path, pki, clock, keys, authority) { harness, client in
            #expect(try await Self.figures(harness, client) == totals)
            let head = try await harness.store.feedHead()
            let events = try await harness.store.feedEvents(after: 0, through: head, limit: 10_000).map(\.event)
            for event in events {
                let text = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
                #expect(!Self.personal.contains(where: text.contains), "\(event.appUserID ?? "-") \(event.source) \(event.payload.kind) \(event.idempotencyKey)")
            }
            for id in try await harness.store.subscriberIDs() {
                let facts = String(decoding: try JSONEncoder().encode(try await harness.store.projection(appUserID: id)), as: UTF8.self)
                #expect(!Self.personal.contains(where: facts.contains), "\(id)")
            }
            let now = try await harness.subscriber(client, Self.jane)
            #expect(now.entitlements.allSatisfy { !$0.isActive } && now.subscriptions.isEmpty && now.attributes["email"] == nil)
        }
    }

    /// What the business sees: the overview and the transaction export (without the rows' subscriber IDs).
    static func figures(_ harness: ServerHarness, _ client: any TestClientProtocol, deleted: Bool = true) async throws -> Figures {
        let report = try ServerHarness.decode(
            AnalyticsReport.self, try await harness.get(client, "/v1/analytics/overview?\(Self.range)", key: ServerHarness.secretKey))
        let export = try await harness.get(client, "/v1/exports/transactions?format=jsonl", key: ServerHarness.secretKey)
        let rows = try String(buffer: export.body).split(separator: "\n").map { line in
            var row = try WireJSON.decoder.decode(TransactionExportRow.self, from: Data(line.utf8))
            #expect(!deleted || row.rcOriginalAppUserID != Self.jane)
            row.rcOriginalAppUserID = row.rcOriginalAppUserID.hasPrefix("$erased:") ? "$erased" : row.rcOriginalAppUserID
            row.rcLastSeenAppUserIDAlias = row.rcLastSeenAppUserIDAlias.hasPrefix("$erased:") ? "$erased" : row.rcLastSeenAppUserIDAlias
            return row
        }
        return Figures(report: report, rows: rows)
    }

    struct Figures: Equatable, Sendable {
        var report: AnalyticsReport
        var rows: [TransactionExportRow]

        static func == (a: Figures, b: Figures) -> Bool {
            a.report == b.report && a.rows.count == b.rows.count && zip(a.rows, b.rows).allSatisfy { x, y in
                var x = x
                if x.rcOriginalAppUserID == "$erased" || y.rcOriginalAppUserID == "$erased" { x.rcOriginalAppUserID = y.rcOriginalAppUserID; x.rcLastSeenAppUserIDAlias = y.rcLastSeenAppUserIDAlias }
                return x == y
            }
        }
    }
}
