import AsyncHTTPClient
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The admin API of webhooks, over HTTP with a secret key.
@Suite("WebhooksController")
struct WebhooksControllerTests {
    @Test("an endpoint's life: created with its secret shown once, tested, rotated (both secrets sign), replayed, removed")
    func endpointLife() async throws {
        try await WebhookReceiver.run { url, receiver in
            try await ServerHarness.run { harness, client in
                let key = ServerHarness.secretKey
                let created = try ServerHarness.decode(WebhookEndpointSecret.self, try await harness.post(
                    client, "/v1/webhooks/endpoints", key: key,
                    body: ServerHarness.json(CreateWebhookEndpointRequest(url: url.absoluteString, description: "backend")), expect: .created))
                #expect(created.secret.hasPrefix("whsec_") && created.secret.count > 40)
                #expect(created.endpoint.secretHints == ["…" + created.secret.suffix(4)])
                let id = created.endpoint.id
                let listed = try await harness.get(client, "/v1/webhooks/endpoints", key: key)
                #expect(!String(buffer: listed.body).contains(created.secret), "a secret is shown once")
                #expect(try ServerHarness.decode([WebhookEndpointInfo].self, listed).map(\.id) == [id])

                // A test event, sent by the worker's pass, signed with the secret.
                let queued = try ServerHarness.decode(WebhookDeliveryInfo.self, try await harness.post(
                    client, "/v1/webhooks/endpoints/\(id)/test", key: key, body: ByteBuffer(), expect: .accepted))
                #expect(queued.eventType == "test" && queued.status == "pending")
                let service = harness.service()
                try await WebhookDeliveryTests.pass(service)
                let first = try #require(receiver.accepted.last)
                #expect(WebhookDeliveryTests.signed(first, secret: created.secret))

                // Rotated: the new and the previous secret both sign, until the next rotation.
                let rotated = try ServerHarness.decode(WebhookEndpointSecret.self, try await harness.post(
                    client, "/v1/webhooks/endpoints/\(id)/secrets", key: key, body: ByteBuffer()))
                #expect(rotated.endpoint.secretHints.count == 2 && rotated.secret != created.secret)
                try await harness.post(client, "/v1/webhooks/endpoints/\(id)/test", key: key, body: ByteBuffer(), expect: .accepted)
                try await WebhookDeliveryTests.pass(service)
                let second = try #require(receiver.accepted.last)
                #expect(WebhookDeliveryTests.signed(second, secret: rotated.secret) && WebhookDeliveryTests.signed(second, secret: created.secret))

                // Failed for good, then replayed.
                receiver.answer(500)
                try await harness.post(client, "/v1/webhooks/endpoints/\(id)/test", key: key, body: ByteBuffer(), expect: .accepted)
                try await WebhookDeliveryTests.pass(service, policy: WebhookDeliveryPolicy(retryDelays: []))
                let failed = try ServerHarness.decode([WebhookDeliveryInfo].self, try await harness.get(
                    client, "/v1/webhooks/deliveries?status=failed", key: key))
                let lost = try #require(failed.first)
                let detail = try ServerHarness.decode(WebhookDeliveryInfo.self, try await harness.get(client, "/v1/webhooks/deliveries/\(lost.id)", key: key))
                #expect(detail.attemptLog?.map(\.status) == [500])
                #expect(detail.lastError == "HTTP 500")
                receiver.answer(200)
                let replayed = try ServerHarness.decode(WebhookReplayResponse.self, try await harness.post(
                    client, "/v1/webhooks/endpoints/\(id)/replay", key: key, body: ServerHarness.json(WebhookReplayRequest(deliveryIDs: [lost.id]))))
                #expect(replayed.replayed == 1)
                harness.clock.set(harness.clock.now.addingTimeInterval(3_600))
                try await WebhookDeliveryTests.pass(service)
                let status = try ServerHarness.decode(WebhookStatusResponse.self, try await harness.get(client, "/v1/webhooks/status", key: key))
                #expect(status.endpoints == 1 && status.delivered == 3 && status.failed == 0 && status.pending == 0)

                // Removed: gone from the list, 404 from then on; its deliveries stay listed.
                try await harness.delete(client, "/v1/webhooks/endpoints/\(id)", key: key)
                try await harness.get(client, "/v1/webhooks/endpoints/\(id)", key: key, expect: .notFound)
                #expect(try ServerHarness.decode([WebhookEndpointInfo].self, try await harness.get(client, "/v1/webhooks/endpoints", key: key)).isEmpty)
                #expect(try ServerHarness.decode([WebhookDeliveryInfo].self, try await harness.get(
                    client, "/v1/webhooks/deliveries?endpointID=\(id)", key: key)).count == 3)
            }
        }
    }

    @Test("bad input is 400 request.invalid", arguments: [
        #"{"url":"ftp://example.com/hooks"}"#, #"{"url":"not a url"}"#, #"{"url":"http://x/y","eventTypes":["purchase"]}"#,
        #"{"url":"http://x/y","secret":"short"}"#, #"{"url":42}"#,
    ])
    func badInput(body: String) async throws {
        try await ServerHarness.run { harness, client in
            let response = try await harness.post(
                client, "/v1/webhooks/endpoints", key: ServerHarness.secretKey, body: ByteBuffer(string: body), expect: .badRequest)
            #expect(ServerHarness.errorCode(response) == "request.invalid")
            try await harness.get(client, "/v1/webhooks/deliveries?limit=0", key: ServerHarness.secretKey, expect: .badRequest)
            try await harness.get(client, "/v1/webhooks/deliveries?status=lost", key: ServerHarness.secretKey, expect: .badRequest)
        }
    }

    @Test("webhooks need a secret key: a public key is 403")
    func secretOnly() async throws {
        try await ServerHarness.run { harness, client in
            try await harness.get(client, "/v1/webhooks/endpoints?appUserID=oa-user", key: harness.publicKey("oa-user"), expect: .forbidden)
        }
    }
}
