import AppStoreModels
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// `POST /v1/app-store/notifications`: Apple's body read, each notification acknowledged after it is stored.
@Suite("AppStoreWebhookController")
struct AppStoreWebhookControllerTests {
    @Test("the same notification in other JSON spellings is stored once, each acknowledged with {}; bodies without a payload are 400", arguments: StorageEngine.databases)
    func spellings(engine: StorageEngine) async throws {
        try await ServerHarness.run(engine: engine) { harness, client in
            let transaction = harness.apple.subscription(
                "com.screentimerewards.family.monthly", original: "910", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            let signed = harness.notification(.subscribed, transaction: transaction)
            let escaped = signed.replacingOccurrences(of: ".", with: "\\u002e")
            for body in [#"{"signedPayload":"\#(signed)"}"#, " { \"extra\": [1, {}], \"signedPayload\" : \"\(signed)\" } ", #"{"signedPayload":"\#(escaped)"}"#] {
                let response = try await harness.post(client, "/v1/app-store/notifications", body: ByteBuffer(string: body))
                #expect(String(buffer: response.body) == "{}")
                #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            }
            #expect(try await harness.store.eventCount() == 1)
            for body in [#"{"signedPayload":5}"#, #"{"signedPayload":null}"#, "{}", #"{"signedPayload":"\#(signed)"} x"#] {
                let refused = try await harness.post(client, "/v1/app-store/notifications", body: ByteBuffer(string: body), expect: .badRequest)
                #expect(ServerHarness.errorCode(refused) == "request.invalid", "\(body.prefix(40))")
            }
            #expect(try await harness.store.eventCount() == 1)
        }
    }
}
