import AppStoreModels
import AppStoreVerification
import EntitleTestSupport
import Foundation
import LocalAppStore
import Testing

extension StoreSimulatorTests {
    @Test("a prorated refund gives back the time left of the period (REFUND_PRORATED, its share in thousandths of a percent); a full one all of it; a reversal clears both")
    func proratedRefund() async throws {
        var store = try Self.store()
        let verifier = try Self.verifier()
        let purchase = try store.purchase(Self.family, at: Self.day(0), introductoryOffer: false)
        let expires = try #require(store.subscription(purchase.originalTransactionID)?.expiresDate)
        let refunded = try store.refund(purchase.originalTransactionID, prorated: true, at: Self.day(10))
        let transaction = try #require(try await verifier.verifyNotification(refunded[0].signedPayload).transactionInfo)
        // The time left: from day 10 to the period's end, over the whole period.
        let share = expires.timeIntervalSince(Self.day(10)) / expires.timeIntervalSince(Self.day(0))
        #expect(transaction.revocationType == .refundProrated)
        #expect(transaction.revocationPercentage == Int32((share * 100_000).rounded()))
        #expect(transaction.revocationDate == Self.day(10))
        #expect(store.subscription(purchase.originalTransactionID)?.expectedState(at: Self.day(11)) == "revoked")
        let reversed = try store.reverseRefund(purchase.originalTransactionID, at: Self.day(12))
        let restored = try #require(try await verifier.verifyNotification(reversed[0].signedPayload).transactionInfo)
        #expect(restored.revocationType == nil && restored.revocationPercentage == nil && restored.revocationDate == nil)

        let other = try store.purchase(Self.individual, at: Self.day(0), introductoryOffer: false)
        let full = try store.refund(other.originalTransactionID, at: Self.day(10))
        let fully = try #require(try await verifier.verifyNotification(full[0].signedPayload).transactionInfo)
        #expect(fully.revocationType == .refundFull && fully.revocationPercentage == 100_000)
    }
}
