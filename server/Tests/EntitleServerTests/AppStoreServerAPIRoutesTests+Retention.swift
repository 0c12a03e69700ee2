import AppStoreModels
import AppStoreServerAPI
import Crypto
import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import LocalAppStore
import NIOCore
import Testing

extension AppStoreServerAPIRoutesTests {
    static let annual = "com.epilogue.plus.annual"

    static func ask(
        _ setup: Setup, _ client: any TestClientProtocol, _ signedPayload: String, expect status: HTTPResponse.Status = .ok
    ) async throws -> RealtimeResponseBody? {
        let response = try await setup.harness.post(
            client, "/v1/app-store/retention-messages", body: ServerHarness.json(RealtimeRequestBody(signedPayload: signedPayload)), expect: status)
        return status == .ok ? try ServerHarness.decode(RealtimeResponseBody.self, response) : nil
    }

    @Test("Apple's real-time retention request, verified as Apple signs it, is answered from Epilogue's rules: a switch to annual for a monthly reader, a message, or nothing")
    func retentionMessages() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            let requests = RetentionRequestSigner(signer: harness.authority.signer)
            let monthly = try store.purchase(Self.monthly, at: harness.clock.now, introductoryOffer: false)
            let annual = try store.purchase(Self.annual, at: harness.clock.now)
            let monthlyChain = try #require(store.subscription(monthly.originalTransactionID))
            let switched = try #require(try await Self.ask(setup, client, requests.signedRequest(for: monthlyChain, locale: "en-US", at: harness.clock.now)))
            #expect(switched.alternateProduct == .init(messageIdentifier: UUID(uuidString: "6d2f1c9e-3a4b-4c5d-8e7f-0a1b2c3d4e5f"), productId: Self.annual))
            #expect(switched.message == nil && switched.promotionalOffer == nil)
            let annualChain = try #require(store.subscription(annual.originalTransactionID))
            let plain = try #require(try await Self.ask(setup, client, requests.signedRequest(for: annualChain, locale: "en_GB", at: harness.clock.now)))
            #expect(plain.message == .init(messageIdentifier: UUID(uuidString: "9b8a7c6d-5e4f-4a3b-9c2d-1e0f2a3b4c5d")) && plain.alternateProduct == nil)
            // No rule for German readers: an empty answer, and Apple shows the app's default message.
            let none = try #require(try await Self.ask(setup, client, requests.signedRequest(for: annualChain, locale: "de-DE", at: harness.clock.now)))
            #expect(none == RealtimeResponseBody())

            // Not signed by Apple's chain, or malformed: refused, never answered.
            let stranger = try LocalCertificateAuthority.create(now: ReferenceTime.start)
            let forged = try RetentionRequestSigner(signer: stranger.signer).signedRequest(for: annualChain, locale: "en-US", at: harness.clock.now)
            for (payload, code) in [
                (forged, "verification.untrustedRoot"), ("not.a.jws", "verification.malformed"),
                // This app's verifiers take sandbox data only.
                (try RetentionRequestSigner(signer: harness.authority.signer, environment: .production, appAppleID: 1)
                    .signedRequest(for: annualChain, locale: "en-US", at: harness.clock.now), "verification.environment"),
            ] {
                let refused = try await harness.post(
                    client, "/v1/app-store/retention-messages", body: ServerHarness.json(RealtimeRequestBody(signedPayload: payload)), expect: .badRequest)
                #expect(ServerHarness.errorCode(refused) == code)
            }
            let metrics = String(buffer: try await client.execute(uri: "/metrics", method: .get, headers: [:]).body)
            #expect(metrics.contains(#"entitle_retention_requests_total{app="com.epilogue.app",outcome="alternate_product"} 1"#))
            #expect(metrics.contains(#"entitle_retention_requests_total{app="com.epilogue.app",outcome="none"} 1"#))
        }
    }

    @Test("a retention promotional offer is signed with the app's key (V2, the compact JWS StoreKit takes) for a customer the offer's rule admits, else the next rule answers")
    func retentionPromotionalOffer() async throws {
        var catalog = Fixtures.exampleCatalog("Epilogue")
        let offerMessage = UUID()
        catalog.retentionRules.insert(
            RetentionRule(products: ["com.epilogue.plus.monthly"], action: .promotionalOffer(offerID: "winback.plus.half", message: offerMessage)), at: 0)
        for eligibility in [PromotionalOfferEligibility.subscribers, .lapsed] {
            catalog.promotionalOfferEligibility["winback.plus.half"] = eligibility
            try await Self.run(catalog: catalog) { setup, client, store in
                let harness = setup.harness
                let purchase = try store.purchase(Self.monthly, at: harness.clock.now, introductoryOffer: false)
                try await harness.post(
                    client, "/v1/subscribers/reader/transactions", key: setup.secret,
                    body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
                let chain = try #require(store.subscription(purchase.originalTransactionID))
                let answer = try #require(try await Self.ask(
                    setup, client, RetentionRequestSigner(signer: harness.authority.signer).signedRequest(for: chain, locale: "en-US", at: harness.clock.now)))
                guard eligibility == .subscribers else {
                    // An active reader isn't lapsed: the switch to annual instead.
                    #expect(answer.promotionalOffer == nil && answer.alternateProduct?.productId == Self.annual)
                    return
                }
                let offer = try #require(answer.promotionalOffer)
                #expect(offer.messageIdentifier == offerMessage)
                let jws = try #require(offer.promotionalOfferSignatureV2).split(separator: ".").map(String.init)
                #expect(jws.count == 3)
                let payload = try #require(Data(base64URL: jws[1]))
                let claims = try #require(try JSONSerialization.jsonObject(with: payload) as? [String: Any])
                #expect(claims["productId"] as? String == Self.monthly && claims["offerIdentifier"] as? String == "winback.plus.half")
                #expect(claims["transactionId"] as? String == purchase.originalTransactionID && claims["aud"] as? String == "promotional-offer")
                let raw = try #require(Data(base64URL: jws[2]))
                let signature = try P256.Signing.ECDSASignature(rawRepresentation: raw)
                #expect(setup.teamKey.privateKey.publicKey.isValidSignature(signature, for: Data("\(jws[0]).\(jws[1])".utf8)))
            }
        }
    }
}

extension Data {
    /// Base64url without padding, as JWS writes it.
    fileprivate init?(base64URL text: String) {
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        base64 += String(repeating: "=", count: (4 - base64.count % 4) % 4)
        self.init(base64Encoded: base64)
    }
}
