import EntitleAPI
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@Suite("SubscriberAPIClient")
struct SubscriberAPIClientTests {
    static func client(_ port: Int?, key: String = ServerHarness.secretKey) throws -> SubscriberAPIClient {
        let port = try #require(port)
        return SubscriberAPIClient(baseURL: try #require(URL(string: "http://127.0.0.1:\(port)")), key: key)
    }

    @Test("over URLSession against the real server: the trial starts and the subscriber reads back")
    func roundTrip() async throws {
        try await ServerHarness.run { harness, client in
            let api = try Self.client(client.port)
            #expect(await api.isHealthy())
            let started = try await api.startTrial("parent-1")
            #expect(started.appTrial.phase == .active)
            #expect(started.entitlements.map(\.state) == [.trial])
            let read = try await api.subscriber("parent-1")
            #expect(read.appTrial.startedAt == started.appTrial.startedAt)
        }
    }

    @Test("Ask to Buy over URLSession: a reported request is pending, its decline ends it")
    func askToBuy() async throws {
        try await ServerHarness.run { harness, client in
            let api = try Self.client(client.port)
            let product = "com.screentimerewards.family.monthly"
            let pending = try await api.reportPendingPurchase("parent-2", productID: product)
            #expect(pending.pendingPurchases.map(\.productID) == [product])
            harness.clock.set(ReferenceTime.start.addingTimeInterval(60))
            let declined = try await api.declinePendingPurchase("parent-2", productID: product)
            #expect(declined.pendingPurchases.isEmpty)
        }
    }

    @Test("subscriber IDs round-trip percent-encoded: spaces, @, +, /, non-ASCII letters", arguments: [
        "a b", "reader@example.com", "x+y", "x/y", "Zoë", "読者-1", "100%",
    ])
    func idRoundTrip(appUserID: String) async throws {
        try await ServerHarness.run { harness, client in
            let api = try Self.client(client.port)
            let started = try await api.startTrial(appUserID)
            #expect(started.appUserID == appUserID)
            #expect(try await api.subscriber(appUserID).appTrial.startedAt == started.appTrial.startedAt)
            #expect(try await harness.store.subscriberIDs() == [AppUserID(appUserID)])
            // A public key minted for the ID works on its encoded path.
            let own = try Self.client(client.port, key: harness.publicKey(appUserID))
            #expect(try await own.subscriber(appUserID).appUserID == appUserID)
        }
    }

    @Test("every spelling of one ID reaches one subscriber: any characters encoded, either hex case, either Unicode normalization")
    func spellings() async throws {
        try await ServerHarness.run { harness, client in
            _ = try await harness.post(client, "/v1/subscribers/Zo%C3%AB/trial", key: ServerHarness.secretKey, body: ByteBuffer())
            for path in ["/v1/subscribers/Zo%c3%ab", "/v1/subscribers/Zoe%CC%88", "/v1/subscribers/%5A%6F%C3%AB"] {
                let read = try ServerHarness.decode(SubscriberResponse.self, try await harness.get(client, path, key: ServerHarness.secretKey))
                #expect(read.appTrial.startedAt != nil, "\(path)")
            }
            #expect(try await harness.store.subscriberIDs() == ["Zo\u{00EB}"])
        }
    }

    @Test("an ID that breaks a rule is a 400 that says which", arguments: [
        ("%zz", "percent-encoding"), ("a%07b", "control character"), (String(repeating: "x", count: 201), "at most 200"),
    ])
    func refusedIDs(path: String, says: String) async throws {
        try await ServerHarness.run { harness, client in
            let response = try await harness.get(client, "/v1/subscribers/\(path)", key: ServerHarness.secretKey, expect: .badRequest)
            #expect(ServerHarness.errorCode(response) == "subscriber.invalidAppUserID")
            #expect(String(buffer: response.body).contains(says))
        }
    }

    @Test("a refusal carries the server's code and status, and is not retryable")
    func refusal() async throws {
        try await ServerHarness.run { harness, client in
            let api = try Self.client(client.port, key: "sk_not_a_key_of_this_server")
            let error = await #expect(throws: APIClientError.self) { try await api.subscriber("parent-1") }
            #expect(error?.code == .refused)
            #expect(error?.status == 401)
            #expect(error?.serverCode == "auth.invalidKey")
            #expect(error?.isRetryable == false)
        }
    }

    @Test("a server that can't be reached is a network error, retryable")
    func unreachable() async throws {
        let api = SubscriberAPIClient(baseURL: try #require(URL(string: "http://127.0.0.1:9")), key: ServerHarness.secretKey, timeout: .seconds(5))
        let error = await #expect(throws: APIClientError.self) { try await api.subscriber("parent-1") }
        #expect(error?.code == .network)
        #expect(error?.isRetryable == true)
        #expect(await api.isHealthy() == false)
    }

    @Test("an app user ID is one path segment, percent-encoded", arguments: [
        ("user-1", "/v1/subscribers/user-1"), ("a b", "/v1/subscribers/a%20b"), ("x/y", "/v1/subscribers/x%2Fy"), ("é?#", "/v1/subscribers/%C3%A9%3F%23"),
    ])
    func pathEncoding(appUserID: String, path: String) {
        #expect(SubscriberAPIClient.subscriberPath(appUserID) == path)
    }
}
