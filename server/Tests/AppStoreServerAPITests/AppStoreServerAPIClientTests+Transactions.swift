import AppStoreModels
import AppStoreServerAPI
import Foundation
import LocalAppStore
import Testing

extension AppStoreServerAPIClientTests {
    @Test("Get App Transaction Info by any of the customer's transaction IDs: the app transaction, verified; an unknown ID is Apple's 4040010")
    func appTransactionInfo() async throws {
        try await Self.run { (setup: Setup) async throws in
            let first = Self.subscription(setup, original: "700", id: "700", day: 0)
            let renewal = Self.subscription(setup, original: "700", id: "701", day: 30)
            setup.record(first)
            setup.record(renewal)
            let byRenewal = try await setup.client().appTransaction("701")
            let byOriginal = try await setup.client().appTransaction("700")
            #expect(byRenewal.bundleId == "com.example" && byRenewal.receiptType == .sandbox)
            #expect(byRenewal.appTransactionId == byOriginal.appTransactionId && byRenewal.originalPurchaseDate == first.originalPurchaseDate)
            // The app transaction's own ID reaches it too.
            let byAppTransaction = try await setup.client().appTransaction(try #require(byRenewal.appTransactionId))
            #expect(byAppTransaction.appTransactionId == byRenewal.appTransactionId)
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client().appTransaction("999") }
            #expect(error?.code == AppStoreServerAPIError.transactionIdNotFound)
        }
    }

    @Test("Finish Transaction reaches the store, signed with the app's key; again is fine; an unknown ID is 4040010")
    func finishTransaction() async throws {
        try await Self.run { (setup: Setup) async throws in
            setup.record(Self.subscription(setup, original: "710", id: "710", day: 0))
            #expect(!setup.api.isFinished(transactionID: "710"))
            try await setup.client().finishTransaction("710")
            try await setup.client().finishTransaction("710")
            #expect(setup.api.isFinished(transactionID: "710"))
            let error = await #expect(throws: AppStoreServerAPIError.self) { try await setup.client().finishTransaction("999") }
            #expect(error?.code == AppStoreServerAPIError.transactionIdNotFound)
        }
    }

    @Test("Apple's hosts: the 2026 ones by default, the earlier ones kept")
    func hosts() {
        #expect(AppStoreServerAPIClient.Endpoints.apple.production.absoluteString == "https://api.storekit.apple.com")
        #expect(AppStoreServerAPIClient.Endpoints.apple.sandbox?.absoluteString == "https://api.storekit-sandbox.apple.com")
        #expect(AppStoreServerAPIClient.Endpoints.appleLegacy.production.absoluteString == "https://api.storekit.itunes.apple.com")
    }
}
