import EntitleAPI
import EntitleTestSupport
import EntitleWire
import Foundation
import HummingbirdTesting
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
