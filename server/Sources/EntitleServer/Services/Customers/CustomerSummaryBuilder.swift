import AppStoreModels
import EntitleCore
import EntitleWire
import Foundation

/// A customer's row in the list (`GET /v1/subscribers`), from their resolved answer and their facts.
enum CustomerSummaryBuilder {
    static func summary(_ access: SubscriberAccess, facts: SubscriberFacts) -> SubscriberSummary {
        let purchases = access.subscriptions.map { status in
            SubscriberSummary.Purchase(
                originalTransactionID: status.originalTransactionID.rawValue, productID: status.productID.rawValue, state: status.state.rawValue,
                storefront: facts.purchases[status.originalTransactionID]?.currentTransaction?.storefront, expiresAt: status.expiresAt)
        }
        let starts = facts.purchases.values.compactMap { $0.currentTransaction?.originalPurchaseDate ?? $0.currentTransaction?.purchaseDate }
        let inTrial: Bool
        switch access.appTrial {
        case .active: inTrial = true
        default: inTrial = access.subscriptions.contains { $0.state == .trial }
        }
        let appGrace: Bool
        if case .grace = access.appTrial { appGrace = true } else { appGrace = false }
        var summary = SubscriberSummary(
            appUserID: access.appUserID.rawValue, firstSeenAt: (starts + [facts.appTrialStartedAt].compactMap { $0 }).min(),
            activeEntitlements: access.activeEntitlements.map(\.id), purchases: purchases, inTrial: inTrial,
            inGrace: appGrace || access.expiryGrace != nil || access.subscriptions.contains { $0.state == .gracePeriod },
            refunded: access.subscriptions.contains { $0.state == .revoked || $0.revokedAt != nil },
            lastVerifiedAt: facts.purchases.values.compactMap(\.lastSignedAt).max())
        summary.anomalies = Array(Set(access.anomalies.map(\.kind.rawValue))).sorted()
        return summary
    }
}
