import AppStoreModels
import Foundation
import Testing

@Suite("JWSRenewalInfoDecodedPayload")
struct JWSRenewalInfoDecodedPayloadTests {
    @Test("Apple's signedRenewalInfo vector decodes with every field typed")
    func decodesAppleVector() throws {
        let url = JWSTransactionDecodedPayloadTests.models.appendingPathComponent("signedRenewalInfo.json")
        let info = try AppStoreJSON.decoder().decode(JWSRenewalInfoDecodedPayload.self, from: Data(contentsOf: url))
        #expect(info.expirationIntent == .customerCancelled)
        #expect(info.originalTransactionId == "12345")
        #expect(info.autoRenewProductId == "com.example.product.2")
        #expect(info.productId == "com.example.product")
        #expect(info.autoRenewStatus == .on)
        #expect(info.isInBillingRetryPeriod == true)
        #expect(info.priceIncreaseStatus == .customerHasNotResponded)
        #expect(info.gracePeriodExpiresDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(info.offerType == .promotionalOffer)
        #expect(info.offerIdentifier == "abc.123")
        #expect(info.signedDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(info.environment == .localTesting)
        #expect(info.recentSubscriptionStartDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(info.renewalDate == Date(timeIntervalSince1970: 1_698_148_850))
        #expect(info.renewalPrice == 9990)
        #expect(info.currency == "USD")
        #expect(info.offerDiscountType == .payAsYouGo)
        #expect(info.eligibleWinBackOfferIds == ["eligible1", "eligible2"])
        #expect(info.appTransactionId == "71134")
        #expect(info.offerPeriod == "P1Y")
        #expect(info.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
        #expect(info.renewalBillingPlanType == .monthly)
        #expect(info.commitmentInfo?.commitmentAutoRenewStatus == .on)
        #expect(info.commitmentInfo?.commitmentRenewalPrice == 9990)
        #expect(info.advancedCommerceInfo?.consistencyToken == "token-abc-123")
        #expect(info.advancedCommerceInfo?.items?.first?.priceIncreaseInfo?.price == 12990)
    }
}
