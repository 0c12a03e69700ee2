import Foundation

/// One transaction as `GET /v1/exports/transactions` and `entitle export transactions` write it: in
/// RevenueCat's Transactions feed columns where Entitle has the fact (docs/exports.md), then Entitle's
/// own. A transaction Apple signed again (a renewal's later version, a refund) appears again with a later
/// `updated_at`: keep the latest row of each `store_transaction_id`.
public struct TransactionExportRow: Codable, Hashable, Sendable {
    /// The subscriber the ledger stored it under (the purchase's owner when it arrived).
    public var rcOriginalAppUserID: String
    /// The purchase's owner now (after restores onto other accounts, log-ins).
    public var rcLastSeenAppUserIDAlias: String
    /// The App Store storefront (Apple's ISO 3166-1 alpha-3 code).
    public var country: String?
    public var productIdentifier: String
    public var startTime: Date
    public var endTime: Date?
    /// Always `app_store`.
    public var store: String
    public var isAutoRenewable: Bool
    public var isTrialPeriod: Bool
    public var isInIntroOfferPeriod: Bool
    public var isSandbox: Bool
    /// The price in US dollars, for a transaction made in dollars (none other is converted); 0 once refunded.
    public var priceInUSD: Decimal?
    public var storeTransactionID: String
    public var originalStoreTransactionID: String
    public var refundedAt: Date?
    public var purchasedCurrency: String?
    /// The price as the customer paid it; 0 once refunded.
    public var priceInPurchasedCurrency: Decimal?
    /// The price as the customer paid it, whatever happened since.
    public var purchasePriceInPurchasedCurrency: Decimal?
    public var entitlementIdentifiers: [String]
    /// `PURCHASED` or `FAMILY_SHARED`.
    public var ownershipType: String
    /// Apple's offer type (`INTRODUCTORY`, `PROMOTIONAL`, `OFFER_CODE`, `WIN_BACK`) and the offer's identifier.
    public var offerType: String?
    public var offer: String?
    /// Apple's environment (`Production`, `Sandbox`, …).
    public var environment: String
    /// When Apple signed this version of the transaction.
    public var updatedAt: Date
    /// The ledger position of the event that carried it (the cursor counts these).
    public var entitleSequence: Int64

    public init(
        rcOriginalAppUserID: String, rcLastSeenAppUserIDAlias: String, country: String?, productIdentifier: String, startTime: Date, endTime: Date?,
        isAutoRenewable: Bool, isTrialPeriod: Bool, isInIntroOfferPeriod: Bool, isSandbox: Bool, priceInUSD: Decimal?, storeTransactionID: String,
        originalStoreTransactionID: String, refundedAt: Date?, purchasedCurrency: String?, priceInPurchasedCurrency: Decimal?,
        purchasePriceInPurchasedCurrency: Decimal?, entitlementIdentifiers: [String], ownershipType: String, offerType: String?, offer: String?,
        environment: String, updatedAt: Date, entitleSequence: Int64
    ) {
        self.rcOriginalAppUserID = rcOriginalAppUserID
        self.rcLastSeenAppUserIDAlias = rcLastSeenAppUserIDAlias
        self.country = country
        self.productIdentifier = productIdentifier
        self.startTime = startTime
        self.endTime = endTime
        self.store = "app_store"
        self.isAutoRenewable = isAutoRenewable
        self.isTrialPeriod = isTrialPeriod
        self.isInIntroOfferPeriod = isInIntroOfferPeriod
        self.isSandbox = isSandbox
        self.priceInUSD = priceInUSD
        self.storeTransactionID = storeTransactionID
        self.originalStoreTransactionID = originalStoreTransactionID
        self.refundedAt = refundedAt
        self.purchasedCurrency = purchasedCurrency
        self.priceInPurchasedCurrency = priceInPurchasedCurrency
        self.purchasePriceInPurchasedCurrency = purchasePriceInPurchasedCurrency
        self.entitlementIdentifiers = entitlementIdentifiers
        self.ownershipType = ownershipType
        self.offerType = offerType
        self.offer = offer
        self.environment = environment
        self.updatedAt = updatedAt
        self.entitleSequence = entitleSequence
    }

    /// The columns, in order: the CSV's header and the JSON keys.
    public enum CodingKeys: String, CodingKey, CaseIterable {
        case rcOriginalAppUserID = "rc_original_app_user_id"
        case rcLastSeenAppUserIDAlias = "rc_last_seen_app_user_id_alias"
        case country
        case productIdentifier = "product_identifier"
        case startTime = "start_time"
        case endTime = "end_time"
        case store
        case isAutoRenewable = "is_auto_renewable"
        case isTrialPeriod = "is_trial_period"
        case isInIntroOfferPeriod = "is_in_intro_offer_period"
        case isSandbox = "is_sandbox"
        case priceInUSD = "price_in_usd"
        case storeTransactionID = "store_transaction_id"
        case originalStoreTransactionID = "original_store_transaction_id"
        case refundedAt = "refunded_at"
        case purchasedCurrency = "purchased_currency"
        case priceInPurchasedCurrency = "price_in_purchased_currency"
        case purchasePriceInPurchasedCurrency = "purchase_price_in_purchased_currency"
        case entitlementIdentifiers = "entitlement_identifiers"
        case ownershipType = "ownership_type"
        case offerType = "offer_type"
        case offer
        case environment
        case updatedAt = "updated_at"
        case entitleSequence = "entitle_sequence"
    }
}
