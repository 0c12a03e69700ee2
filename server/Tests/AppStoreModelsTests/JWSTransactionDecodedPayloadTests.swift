import AppStoreModels
import Foundation
import Testing

@Suite("JWSTransactionDecodedPayload")
struct JWSTransactionDecodedPayloadTests {
    static let models = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fixtures/AppleModels")

    @Test("Apple's signedTransaction vector decodes with every field typed")
    func decodesAppleVector() throws {
        let data = try Data(contentsOf: Self.models.appendingPathComponent("signedTransaction.json"))
        let transaction = try AppStoreJSON.decoder().decode(JWSTransactionDecodedPayload.self, from: data)
        #expect(transaction.transactionId == "23456")
        #expect(transaction.originalTransactionId == "12345")
        #expect(transaction.webOrderLineItemId == "34343")
        #expect(transaction.bundleId == "com.example")
        #expect(transaction.productId == "com.example.product")
        #expect(transaction.subscriptionGroupIdentifier == "55555")
        #expect(transaction.purchaseDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(transaction.originalPurchaseDate == Date(timeIntervalSince1970: 1_698_148_800))
        #expect(transaction.expiresDate == Date(timeIntervalSince1970: 1_698_149_000))
        #expect(transaction.quantity == 1)
        #expect(transaction.type == .autoRenewable)
        #expect(transaction.appAccountToken == UUID(uuidString: "7e3fb20b-4cdb-47cc-936d-99d65f608138"))
        #expect(transaction.inAppOwnershipType == .purchased)
        #expect(transaction.signedDate == Date(timeIntervalSince1970: 1_698_148_900))
        #expect(transaction.revocationReason == .appIssue)
        #expect(transaction.revocationDate == Date(timeIntervalSince1970: 1_698_148_950))
        #expect(transaction.isUpgraded == true)
        #expect(transaction.offerType == .introductoryOffer)
        #expect(transaction.offerIdentifier == "abc.123")
        #expect(transaction.environment == .localTesting)
        #expect(transaction.transactionReason == .purchase)
        #expect(transaction.storefront == "USA")
        #expect(transaction.storefrontId == "143441")
        #expect(transaction.price == 10990)
        #expect(transaction.currency == "USD")
        #expect(transaction.offerDiscountType == .payAsYouGo)
        #expect(transaction.appTransactionId == "71134")
        #expect(transaction.offerPeriod == "P1Y")
        #expect(transaction.billingPlanType == .monthly)
        #expect(transaction.commitmentInfo == TransactionCommitmentInfo(
            billingPeriodNumber: 3, commitmentExpiresDate: Date(timeIntervalSince1970: 1_698_150_000), commitmentPrice: 119_880, totalBillingPeriods: 12))
        let commerce = try #require(transaction.advancedCommerceInfo)
        #expect(commerce.descriptors?.displayName == "Premium")
        #expect(commerce.estimatedTax == 1500)
        #expect(commerce.items?.first?.SKU == "com.example.sku.premium")
        #expect(commerce.items?.first?.refunds?.first?.refundAmount == 5000)
        #expect(commerce.taxRate == "0.15")
    }

    @Test("revocationType and revocationPercentage decode")
    func decodesRevocation() throws {
        let data = try Data(contentsOf: Self.models.appendingPathComponent("signedTransactionWithRevocation.json"))
        let transaction = try AppStoreJSON.decoder().decode(JWSTransactionDecodedPayload.self, from: data)
        #expect(transaction.revocationType == .refundProrated)
        #expect(transaction.revocationPercentage == 50000)
    }

    @Test("a transaction round-trips through Apple's wire format")
    func roundTrip() throws {
        let data = try Data(contentsOf: Self.models.appendingPathComponent("signedTransaction.json"))
        let decoder = AppStoreJSON.decoder()
        let transaction = try decoder.decode(JWSTransactionDecodedPayload.self, from: data)
        let again = try decoder.decode(JWSTransactionDecodedPayload.self, from: AppStoreJSON.encoder().encode(transaction))
        #expect(again == transaction)
    }

    @Test("a wrongly typed field fails decoding")
    func wrongType() {
        #expect(throws: DecodingError.self) {
            _ = try AppStoreJSON.decoder().decode(JWSTransactionDecodedPayload.self, from: Data(#"{"price":"7.99"}"#.utf8))
        }
    }
}
