import AppStoreModels
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import EntitleServer

/// `POST /v1/app-store/notifications`: Apple's body read, each notification acknowledged after it is stored.
@Suite("AppStoreWebhookController")
struct AppStoreWebhookControllerTests {
    static let bodies: [String] = [
        #"{"signedPayload":"eyJhbGciOiJFUzI1NiJ9.eyJ9.c2ln"}"#,
        " {\n \"signedPayload\" : \"a.b.c\" } \n",
        #"{"signedPayload":"a.b.c","extra":1}"#,
        #"{"signedPayload":"a\/b.c"}"#,
        #"{"signedPayload":"a.b.c","signedPayload":"d.e.f"}"#,
        #"{"signedPayload":null}"#,
        #"{"signedPayload":5}"#,
        #"{"signedPayload":"é.ü.ß"}"#,
        #"{"signedPayload":"a.b.c"} x"#,
        #"{"signedPayload":"a.b.c""#,
        #"{}"#,
        #"[]"#,
        "",
    ]

    @Test("a body the cursor reads is read as JSONDecoder reads it", arguments: bodies)
    func bodyRead(body: String) {
        let decoded = try? JSONDecoder().decode(AppStoreNotificationRequest.self, from: Data(body.utf8))
        if let read = AppStoreWebhookController.signedPayload(ByteBuffer(string: body)) {
            #expect(read == decoded?.signedPayload)
        }
    }

    @Test("the same notification in other JSON spellings is stored once, each acknowledged with {}; bodies without a payload are 400", arguments: StorageEngine.allCases)
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
