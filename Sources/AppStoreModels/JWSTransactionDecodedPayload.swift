import Foundation

/// A transaction, as the App Store signs it: what the App Store Server API, App Store Server
/// Notifications and StoreKit 2's `jwsRepresentation` carry.
///
/// Field names and types are Apple's. Dates are milliseconds since 1970 on the wire (decode with
/// ``AppStoreJSON/decoder()``); `price` is in milliunits of `currency`.
///
/// [JWSTransactionDecodedPayload](https://developer.apple.com/documentation/appstoreserverapi/jwstransactiondecodedpayload)
public struct JWSTransactionDecodedPayload: Codable, Hashable, Sendable {
    /// The UUID the app set at purchase to tie the transaction to its own account.
    public var appAccountToken: UUID?
    /// The unique identifier of the app download transaction.
    public var appTransactionId: String?
    /// Advanced Commerce API data, for apps that sell through it.
    public var advancedCommerceInfo: AdvancedCommerceInfo?
    /// How a subscription with a 12-month commitment is billed.
    public var billingPlanType: BillingPlanType?
    /// Where this transaction stands in a 12-month commitment.
    public var commitmentInfo: TransactionCommitmentInfo?
    public var bundleId: String?
    /// ISO 4217 currency code of `price`.
    public var currency: String?
    public var environment: Environment?
    /// When the subscription expires or renews.
    public var expiresDate: Date?
    public var inAppOwnershipType: InAppOwnershipType?
    /// Whether the customer upgraded to another subscription; an upgraded transaction grants nothing.
    public var isUpgraded: Bool?
    public var offerDiscountType: OfferDiscountType?
    public var offerIdentifier: String?
    /// The duration of the offer, ISO 8601 (`P1M`).
    public var offerPeriod: String?
    public var offerType: OfferType?
    public var originalPurchaseDate: Date?
    /// The transaction identifier of the original purchase; constant across renewals and plan changes
    /// within a subscription group.
    public var originalTransactionId: String?
    /// The price in milliunits of `currency` (7.99 USD is 7990).
    public var price: Int64?
    public var productId: String?
    public var purchaseDate: Date?
    public var quantity: Int32?
    /// When the App Store refunded the transaction or revoked it from Family Sharing.
    public var revocationDate: Date?
    public var revocationReason: RevocationReason?
    /// The refunded share of the transaction in thousandths of a percent (50000 is 50%).
    public var revocationPercentage: Int32?
    public var revocationType: RevocationType?
    /// When the App Store signed this payload.
    public var signedDate: Date?
    /// The three-letter code of the App Store storefront.
    public var storefront: String?
    public var storefrontId: String?
    public var subscriptionGroupIdentifier: String?
    public var transactionId: String?
    public var transactionReason: TransactionReason?
    public var type: ProductType?
    /// The identifier of subscription purchase events across devices, including renewals.
    public var webOrderLineItemId: String?

    public init(
        appAccountToken: UUID? = nil, appTransactionId: String? = nil, bundleId: String? = nil,
        currency: String? = nil, environment: Environment? = nil, expiresDate: Date? = nil,
        inAppOwnershipType: InAppOwnershipType? = nil, isUpgraded: Bool? = nil,
        offerDiscountType: OfferDiscountType? = nil, offerIdentifier: String? = nil,
        offerPeriod: String? = nil, offerType: OfferType? = nil, originalPurchaseDate: Date? = nil,
        originalTransactionId: String? = nil, price: Int64? = nil, productId: String? = nil,
        purchaseDate: Date? = nil, quantity: Int32? = nil, revocationDate: Date? = nil,
        revocationReason: RevocationReason? = nil, revocationPercentage: Int32? = nil,
        revocationType: RevocationType? = nil, signedDate: Date? = nil, storefront: String? = nil,
        storefrontId: String? = nil, subscriptionGroupIdentifier: String? = nil,
        transactionId: String? = nil, transactionReason: TransactionReason? = nil,
        type: ProductType? = nil, webOrderLineItemId: String? = nil
    ) {
        self.appAccountToken = appAccountToken
        self.appTransactionId = appTransactionId
        self.bundleId = bundleId
        self.currency = currency
        self.environment = environment
        self.expiresDate = expiresDate
        self.inAppOwnershipType = inAppOwnershipType
        self.isUpgraded = isUpgraded
        self.offerDiscountType = offerDiscountType
        self.offerIdentifier = offerIdentifier
        self.offerPeriod = offerPeriod
        self.offerType = offerType
        self.originalPurchaseDate = originalPurchaseDate
        self.originalTransactionId = originalTransactionId
        self.price = price
        self.productId = productId
        self.purchaseDate = purchaseDate
        self.quantity = quantity
        self.revocationDate = revocationDate
        self.revocationReason = revocationReason
        self.revocationPercentage = revocationPercentage
        self.revocationType = revocationType
        self.signedDate = signedDate
        self.storefront = storefront
        self.storefrontId = storefrontId
        self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
        self.transactionId = transactionId
        self.transactionReason = transactionReason
        self.type = type
        self.webOrderLineItemId = webOrderLineItemId
    }
}
