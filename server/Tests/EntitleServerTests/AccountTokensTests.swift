import AppStoreModels
import EntitleCore
@testable import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@Suite("AccountTokens")
struct AccountTokensTests {
    static let family = "com.screentimerewards.family.monthly"
    static let tokens = AccountTokens(bundleID: "com.screentimerewards")

    static func purchase(_ harness: ServerHarness, original: String, token: UUID) -> JWSTransactionDecodedPayload {
        var transaction = harness.apple.subscription(Self.family, original: original, purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
        transaction.appAccountToken = token
        return transaction
    }

    @Test("the derived token: an RFC 9562 version 8 UUID, the same for the same app and user, different across apps and users")
    func derived() {
        let token = Self.tokens.token(for: "reader")
        #expect(token == Self.tokens.token(for: "reader"))
        #expect(token != Self.tokens.token(for: "reader2"))
        #expect(token != AccountTokens(bundleID: "com.epilogue.app").token(for: "reader"))
        let text = token.uuidString
        #expect(Array(text)[14] == "8")
        #expect(["8", "9", "A", "B"].contains(Array(text)[19]))
    }

    @Test("the subscribers whose token a process registered are remembered up to a bound, then forgotten at once")
    func boundedMemory() {
        let tokens = AccountTokens(bundleID: "com.screentimerewards", capacity: 2)
        #expect(tokens.needsRegistering("a"))
        #expect(!tokens.needsRegistering("a"))
        #expect(tokens.needsRegistering("b"))
        #expect(!tokens.needsRegistering("b"))
        // A third subscriber: the first two are forgotten, so they are registered again (idempotently).
        #expect(tokens.needsRegistering("c"))
        #expect(!tokens.needsRegistering("c"))
        #expect(tokens.needsRegistering("a"))
    }

    @Test("a purchase no app submitted finds its subscriber by appAccountToken, whichever arrives first", arguments: StorageEngine.databases)
    func notificationFirst(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            // The app asked for its subscriber (and token) before purchasing: the notification links at once.
            let known = try await harness.subscriber(client, "reader")
            let token = try #require(known.appAccountToken)
            #expect(token == Self.tokens.token(for: "reader"))
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: Self.purchase(harness, original: "810", token: token)))
            #expect(try await harness.store.owner(originalTransactionID: "810") == "reader")
            #expect(try await harness.subscriber(client, "reader").entitlements.filter(\.isActive).map(\.id) == ["family"])

            // The notification first (held), then the subscriber: the first answer links it.
            let later = Self.tokens.token(for: "reader-2")
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: Self.purchase(harness, original: "811", token: later)))
            #expect(try await harness.store.heldEventCount() == 1)
            let linked = try await harness.subscriber(client, "reader-2")
            #expect(linked.entitlements.filter(\.isActive).map(\.id) == ["family"])
            #expect(try await harness.store.heldEventCount() == 0)
            #expect(try await harness.store.projection(appUserID: "reader-2")
                == SubscriberFacts.fold(appUserID: "reader-2", events: try await harness.store.events(appUserID: "reader-2")))
        }
    }

    @Test("a token the app chose: registered with PUT, it links purchases; another subscriber can't take it", arguments: StorageEngine.databases)
    func appChosen(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let chosen = UUID()
            try await harness.postNotification(client, harness.notification(.subscribed, transaction: Self.purchase(harness, original: "812", token: chosen)))
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(harness.publicKey("reader-3"))"
            headers[.contentType] = "application/json"
            let registered = try await client.execute(
                uri: "/v1/subscribers/reader-3/app-account-token", method: .put, headers: headers,
                body: ServerHarness.json(AppAccountTokenRequest(appAccountToken: chosen)))
            #expect(registered.status == .ok)
            #expect(try ServerHarness.decode(SubscriberResponse.self, registered).entitlements.filter(\.isActive).map(\.id) == ["family"])

            headers[.authorization] = "Bearer \(harness.publicKey("reader-4"))"
            let taken = try await client.execute(
                uri: "/v1/subscribers/reader-4/app-account-token", method: .put, headers: headers,
                body: ServerHarness.json(AppAccountTokenRequest(appAccountToken: chosen)))
            #expect(taken.status == .conflict)
            #expect(ServerHarness.errorCode(taken) == "subscriber.appAccountTokenTaken")
            #expect(try await harness.store.owner(originalTransactionID: "812") == "reader-3")
        }
    }
}
