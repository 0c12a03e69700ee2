import AppStoreModels
import Foundation

/// An Ask to Buy request for one product, as the app reported it: Apple signs nothing until a parent
/// approves, so StoreKit's `.pending` purchase result is all there is to go on.
///
/// Apple consolidates repeated requests for the same product and restarts their 24-hour timer; a
/// request not answered within 24 hours lapses. The request awaits approval until then, unless a
/// decline was reported after it or a transaction of the product purchased at or after it is known
/// (the approval). Recording keeps the latest request and the latest decline, so requests and
/// declines in any order, duplicated or replayed, give the same value.
public struct PendingPurchase: Hashable, Sendable, Codable {
    public var productID: ProductID
    /// The latest request.
    public var requestedAt: Date
    /// The latest decline reported, if any.
    public var declinedAt: Date?

    /// How long a request waits for a parent's answer.
    public static let lifetime: TimeInterval = 24 * 60 * 60

    public init(productID: ProductID, requestedAt: Date, declinedAt: Date? = nil) {
        self.productID = productID
        self.requestedAt = requestedAt
        self.declinedAt = declinedAt
    }

    /// When the latest request lapses unanswered.
    public var expiresAt: Date { requestedAt.addingTimeInterval(Self.lifetime) }

    /// Records another request for the product.
    public mutating func recordRequest(at instant: Date) {
        requestedAt = max(requestedAt, instant)
    }

    /// Records that the request was declined.
    public mutating func recordDecline(at instant: Date) {
        declinedAt = max(declinedAt ?? instant, instant)
    }

    /// Whether the latest request still awaits a parent's answer at `now`, given the subscriber's
    /// purchase chains.
    public func isAwaitingApproval(at now: Date, purchases: some Collection<SubscriptionFacts>) -> Bool {
        guard requestedAt <= now, now < expiresAt else { return false }
        if let declinedAt, declinedAt >= requestedAt, declinedAt <= now { return false }
        let approved = purchases.contains { chain in
            chain.transactions.values.contains { transaction in
                transaction.productId == productID.rawValue
                    && (transaction.purchaseDate ?? .distantPast) >= requestedAt && (transaction.purchaseDate ?? .distantPast) <= now
            }
        }
        return !approved
    }
}
