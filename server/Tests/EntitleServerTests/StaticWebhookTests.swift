import EntitleCore
@testable import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

@Suite("StaticWebhook")
struct StaticWebhookTests {
    static let hook = StaticWebhook(app: nil, url: "http://127.0.0.1:9/hooks", secret: "whsec_0123456789abcdef")

    @Test(
        "one --webhook-url for every app of a database: an endpoint in each app under its own ID, the same at every start",
        arguments: StorageEngine.databases)
    func everyApp(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let apps: [BundleID] = ["com.screentimerewards", "com.epilogue.app", "com.pantrypal.app"]
            for _ in 0..<2 {
                for app in apps { try await StaticWebhook.register([Self.hook], in: store.forApp(app).webhookStore(), at: ReferenceTime.start) }
            }
            var ids: Set<String> = []
            for app in apps {
                let endpoints = try await store.forApp(app).webhookStore().endpoints(includingRemoved: true)
                #expect(endpoints.map(\.url) == [Self.hook.url])
                #expect(endpoints.allSatisfy { $0.removedAt == nil && $0.app == app })
                ids.formUnion(endpoints.map(\.id))
            }
            #expect(ids.count == apps.count)
        }
    }

    @Test("an app's endpoint stored by an earlier version, under the URL's ID alone, keeps that ID", arguments: StorageEngine.databases)
    func earlierID(engine: StorageEngine) async throws {
        try await engine.withStore { store in
            let webhooks = store.forApp("com.screentimerewards").webhookStore()
            let legacy = StaticWebhook.legacyEndpointID(url: Self.hook.url)
            try await webhooks.addEndpoint(WebhookEndpoint(
                id: legacy, app: webhooks.app, url: Self.hook.url, eventTypes: [], secrets: ["whsec_earlier_secret_0001"], description: "--webhook-url",
                createdAt: ReferenceTime.start))
            try await StaticWebhook.register([Self.hook], in: webhooks, at: ReferenceTime.day(1))
            let endpoints = try await webhooks.endpoints(includingRemoved: true)
            #expect(endpoints.map(\.id) == [legacy])
            #expect(endpoints.first?.secrets == [Self.hook.secret])
            #expect(endpoints.first?.removedAt == nil)
        }
    }
}
