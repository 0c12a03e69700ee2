#if !canImport(StoreKit)
import Foundation

/// The mirror's own (not StoreKit): what answers StoreKit's calls on Linux, as the App Store and the
/// device's StoreKit daemon do on Apple platforms. Transactions and renewal infos travel as the store
/// signed them (compact JWS); the mirror decodes their payloads as StoreKit does.
public protocol StoreKitMirrorBackend: Sendable {
    /// The products on sale among `identifiers` (StoreKit: unknown identifiers are left out, not errors).
    func products(for identifiers: [String]) async throws -> [Product]
    /// Buys `product` with `options`, as the confirmation sheet and the user decide.
    func purchase(_ product: Product, options: Set<Product.PurchaseOption>) async throws -> StoreKitMirrorPurchase
    /// The transaction is delivered: the store stops handing it over as unfinished.
    func finish(transactionID: UInt64) async
    /// Transactions not yet finished (StoreKit hands them over again at every launch), signed.
    func unfinishedTransactions() async -> [StoreKitMirrorSigned]
    /// The latest transaction of every product the user is entitled to now, signed.
    func currentEntitlements() async -> [StoreKitMirrorSigned]
    /// Every transaction of the user's purchase history for the app (expired and refunded ones too;
    /// finished consumables left out), signed.
    func allTransactions() async -> [StoreKitMirrorSigned]
    /// Transactions that arrive outside a purchase (renewals, refunds, approved Ask to Buy, other devices).
    func transactionUpdates() -> AsyncStream<StoreKitMirrorSigned>
    /// `AppStore.sync()`: brings the device's transactions up to date (may ask the user to sign in).
    func sync() async throws
    /// Each subscription of the group the user has (their own, or shared with them), with its renewal info.
    func subscriptionStatuses(groupID: String) async throws -> [StoreKitMirrorStatus]
    /// Whether the user may still have the group's introductory offer.
    func isEligibleForIntroOffer(groupID: String) async -> Bool
    /// Shows the manage-subscriptions sheet; returns when the user closes it.
    func showManageSubscriptions(subscriptionGroupID: String?) async throws
    /// Shows the offer-code sheet; returns when the user closes it (the redeemed transaction arrives as an update).
    func presentOfferCodeRedeemSheet() async throws
    /// Shows the refund sheet for a transaction; the refund itself arrives later as an update.
    func beginRefundRequest(transactionID: UInt64) async throws -> Transaction.RefundRequestStatus
}

/// The mirror's own: a compact JWS as the store signed it, and whether the device's checks passed
/// (StoreKit's `VerificationResult`: `nil` is verified).
public struct StoreKitMirrorSigned: Sendable, Hashable {
    public var jws: String
    public var verificationError: VerificationResult<Transaction>.VerificationError?

    public init(jws: String, verificationError: VerificationResult<Transaction>.VerificationError? = nil) {
        self.jws = jws
        self.verificationError = verificationError
    }
}

/// The mirror's own: what a purchase came to in the store.
public enum StoreKitMirrorPurchase: Sendable, Hashable {
    case signed(StoreKitMirrorSigned)
    case pending
    case userCancelled
}

/// The mirror's own: one subscription's state with its signed transaction and renewal info.
public struct StoreKitMirrorStatus: Sendable, Hashable {
    public var state: Product.SubscriptionInfo.RenewalState
    public var transaction: StoreKitMirrorSigned
    public var renewalInfo: String

    public init(state: Product.SubscriptionInfo.RenewalState, transaction: StoreKitMirrorSigned, renewalInfo: String) {
        self.state = state
        self.transaction = transaction
        self.renewalInfo = renewalInfo
    }
}
#endif
