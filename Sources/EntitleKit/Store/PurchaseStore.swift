import Foundation

/// The App Store as EntitleKit uses it: StoreKit 2 on Apple platforms (`StoreKitStore`), the local
/// App Store elsewhere. Transactions travel as Apple signed them (their JWS): only the server judges them.
public protocol PurchaseStore: Sendable {
    /// The products on sale among `ids`, as the store shows them (name and price in the user's storefront).
    func products(_ ids: [String]) async throws(StoreFailure) -> [StoreProduct]
    /// Buys `productID`; the store's sheet, Ask to Buy and the user's choice decide the result.
    func purchase(_ productID: String, options: PurchaseOptions) async throws(StoreFailure) -> StorePurchaseResult
    /// Tells the store the transaction is delivered (only after the server stored it).
    func finish(_ transaction: SignedTransaction) async
    /// Transactions that arrive outside a purchase: renewals, refunds, revocations, approved Ask to Buy,
    /// purchases on other devices, and the unfinished ones since the last launch.
    func transactionUpdates() -> AsyncStream<SignedTransaction>
    /// The user's current entitlements as the store signs them (for restore).
    func currentEntitlements() async throws(StoreFailure) -> [SignedTransaction]
    /// Every transaction of the user's purchase history for the app, expired and refunded ones too
    /// (StoreKit's `Transaction.all`), for ``Entitle/syncPurchases(force:)``. By default the current
    /// entitlements.
    func allTransactions() async throws(StoreFailure) -> [SignedTransaction]
    /// Asks the store to bring the device's transactions up to date (StoreKit's `AppStore.sync()`).
    func sync() async throws(StoreFailure)
}

extension PurchaseStore {
    public func allTransactions() async throws(StoreFailure) -> [SignedTransaction] {
        try await currentEntitlements()
    }
}

/// A product as the store shows it to this user.
public struct StoreProduct: Sendable, Hashable {
    public var id: String
    public var displayName: String
    /// The price formatted for the user's storefront.
    public var displayPrice: String
    /// For a subscription with an introductory offer: whether the store would give it to this user
    /// (StoreKit's `isEligibleForIntroOffer`); `nil` when the product has none or the store doesn't say.
    public var isEligibleForIntroductoryOffer: Bool?

    public init(id: String, displayName: String, displayPrice: String, isEligibleForIntroductoryOffer: Bool? = nil) {
        self.id = id
        self.displayName = displayName
        self.displayPrice = displayPrice
        self.isEligibleForIntroductoryOffer = isEligibleForIntroductoryOffer
    }
}

/// A transaction as the store signed it.
public struct SignedTransaction: Sendable, Hashable {
    /// The JWS (StoreKit's `jwsRepresentation`).
    public var jws: String
    public var transactionID: String
    public var productID: String

    public init(jws: String, transactionID: String, productID: String) {
        self.jws = jws
        self.transactionID = transactionID
        self.productID = productID
    }
}

/// What a purchase asks of the store besides the product.
public struct PurchaseOptions: Sendable, Hashable {
    /// Apple signs it into the purchase; the server links the purchase to its subscriber by it.
    public var appAccountToken: UUID?
    /// The promotional offer the purchase redeems, as the server signed it for this user
    /// (``appAccountToken`` is then the token the signature covers).
    public var promotionalOffer: SignedPromotionalOffer?
    /// The server's signed word on the product's introductory offer for this user (a compact JWS): the
    /// store applies it, or not, as it says rather than by its own rule.
    public var introductoryOfferEligibility: String?
    /// A win-back offer Apple lists for this user (the renewal info's `eligibleWinBackOfferIds`, in the
    /// server's offerings): the store applies it if it still does.
    public var winBackOfferID: String?

    public init(
        appAccountToken: UUID? = nil, promotionalOffer: SignedPromotionalOffer? = nil, introductoryOfferEligibility: String? = nil,
        winBackOfferID: String? = nil
    ) {
        self.appAccountToken = appAccountToken
        self.promotionalOffer = promotionalOffer
        self.introductoryOfferEligibility = introductoryOfferEligibility
        self.winBackOfferID = winBackOfferID
    }
}

/// What the store made of a purchase.
public enum StorePurchaseResult: Sendable, Hashable {
    case purchased(SignedTransaction)
    /// Waiting for approval (Ask to Buy) or another action; the transaction arrives as an update.
    case pending
    case cancelled
}

/// Why the store could not do it.
public struct StoreFailure: Error, Sendable, Hashable {
    public enum Kind: String, Sendable, Hashable {
        /// The store can't be reached or isn't available on the device.
        case storeUnavailable
        /// The product isn't on sale (not in this storefront, removed).
        case productUnavailable
        /// The user may not buy (parental controls, payments disabled).
        case notAllowed
        /// The store's data did not verify on the device.
        case verificationFailed
        /// The store refused the offer the purchase asked for (not eligible, unknown, a signature it
        /// doesn't accept).
        case offerRefused
        /// The user cancelled (signing in to the store, a sync).
        case cancelled
    }

    public var kind: Kind
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }
}
