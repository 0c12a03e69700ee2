import AppStoreModels
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
    @Test("a subscriber's app transaction from Apple (Get App Transaction Info by one of their purchases); Finish Transaction reaches Apple")
    func appTransactionAndFinish() async throws {
        try await Self.run { setup, client, store in
            let harness = setup.harness
            // Without a purchase there is nothing to ask Apple with.
            let none = try await harness.get(client, "/v1/subscribers/reader/app-transaction", key: setup.secret, expect: .notFound)
            #expect(ServerHarness.errorCode(none) == "request.notFound")
            let purchase = try store.purchase(Self.monthly, at: harness.clock.now)
            try await harness.post(
                client, "/v1/subscribers/reader/transactions", key: setup.secret,
                body: ServerHarness.json(SubmitTransactionRequest(signedTransaction: purchase.signedTransaction)))
            Self.lose(purchase.notifications, setup)
            let app = try ServerHarness.decode(
                AppTransactionResponse.self, try await harness.get(client, "/v1/subscribers/reader/app-transaction", key: setup.secret))
            #expect(app.originalPurchaseDate == purchase.transaction.originalPurchaseDate && app.originalApplicationVersion == "1.0")
            #expect(app.environment == "Sandbox" && app.appTransactionID != nil)

            let transactionID = try #require(purchase.transaction.transactionId)
            let finished = try ServerHarness.decode(
                FinishTransactionResponse.self, try await harness.post(client, "/v1/transactions/\(transactionID)/finish", key: setup.secret, body: .init()))
            #expect(finished.finished && setup.api.isFinished(transactionID: transactionID))
            let unknown = try await harness.post(client, "/v1/transactions/999/finish", key: setup.secret, body: .init(), expect: .notFound)
            #expect(ServerHarness.errorCode(unknown) == "appStore.notFound")
            // Public keys don't reach Apple.
            try await harness.post(client, "/v1/transactions/\(transactionID)/finish", key: harness.publicKey("reader"), body: .init(), expect: .forbidden)
        }
    }
}
