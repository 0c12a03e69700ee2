import AppStoreModels
import EntitleCore
import Foundation

extension AnalyticsContributor {
    /// A paid period as the funnels read it.
    struct Payment {
        var at: Date
        var currency: String
        /// The price less what a refund gave back (all of it, or a prorated refund's share).
        var net: Int64
        /// A purchase the subscriber decided on: the chain's first paid period (a direct purchase or a
        /// trial's conversion), or one Apple gives the reason `PURCHASE` (an upgrade, a resubscription).
        var isPurchase: Bool
        /// When the period ends (`nil`: a one-time purchase).
        var expires: Date?
    }

    /// A subscriber's purchases as the funnels and experiments read them: when each introductory free
    /// trial began, and each chain's paid periods in order (family-shared ones left out).
    struct Purchases {
        var trialStarts: [Date] = []
        var chains: [[Payment]] = []
    }

    func purchases(of history: SubscriberHistory) -> Purchases {
        var purchases = Purchases()
        for chain in history.purchases.values {
            var payments: [Payment] = []
            for transaction in chain.chronological {
                guard let purchased = transaction.purchaseDate, transaction.inAppOwnershipType != .familyShared else { continue }
                let price = transaction.price ?? catalog.product(ProductID(transaction.productId ?? ""))?.price?.milliunits ?? 0
                if isFree(transaction, price: price) {
                    if transaction.offerType == .introductoryOffer { purchases.trialStarts.append(purchased) }
                    continue
                }
                let refunded = chain.revocation(of: transaction) != nil && !(transaction.isUpgraded ?? false)
                payments.append(Payment(
                    at: purchased, currency: transaction.currency ?? catalog.currency ?? "XXX",
                    net: refunded ? price.saturatingSubtracting(Self.refundedAmount(of: transaction, price: price)) : price,
                    isPurchase: payments.isEmpty || transaction.transactionReason == .purchase, expires: transaction.expiresDate))
            }
            if !payments.isEmpty { purchases.chains.append(payments) }
        }
        return purchases
    }

    /// The segments a paywall event counts in: every paywall together, then its paywall, offering,
    /// trigger and feature (docs/growth.md).
    static func funnelSegments(of event: PaywallEvent) -> [String] {
        ["", "paywall:\(event.paywallID)", "offering:\(event.offeringID)", "trigger:\(event.trigger ?? "")", "feature:\(event.feature ?? "")"]
    }

    /// The metric each kind of paywall event counts in.
    static func funnelMetric(of kind: PaywallEventKind) -> AnalyticsMetric {
        switch kind {
        case .shown: .paywallImpressions
        case .closed: .paywallCloses
        case .purchaseStarted: .paywallPurchasesStarted
        case .purchaseCancelled: .paywallPurchasesCancelled
        case .purchaseFailed: .paywallPurchasesFailed
        case .purchased: .paywallPurchased
        }
    }

    /// The funnels' cells: the paywall events by segment, each segment's first view and what the
    /// subscriber bought at or after it, and the subscriber's path from first seen to paid.
    func addFunnelCells(of history: SubscriberHistory, purchases: Purchases, to cells: inout AnalyticsCells) {
        let (trialStarts, chains) = (purchases.trialStarts, purchases.chains)

        var firstViews: [String: Date] = [:]
        for event in history.paywallEvents.values {
            let day = AnalyticsCalendar.day(of: event.at)
            let metric = Self.funnelMetric(of: event.kind)
            for segment in Self.funnelSegments(of: event) {
                cells.add(1, to: AnalyticsKey(day: day, metric: metric, cohort: segment))
                if event.kind == .shown { firstViews[segment] = min(firstViews[segment] ?? event.at, event.at) }
            }
        }
        for (segment, viewed) in firstViews {
            let day = AnalyticsCalendar.day(of: viewed)
            cells.add(1, to: AnalyticsKey(day: day, metric: .paywallViewers, cohort: segment))
            if trialStarts.contains(where: { $0 >= viewed }) {
                cells.add(1, to: AnalyticsKey(day: day, metric: .paywallTrialConversions, cohort: segment))
            }
            var converted = false
            for payments in chains {
                guard let first = payments.firstIndex(where: { $0.isPurchase && $0.at >= viewed }) else { continue }
                converted = true
                for payment in payments[first...] {
                    cells.add(payment.net, to: AnalyticsKey(day: day, metric: .paywallRevenue, currency: payment.currency, cohort: segment))
                }
            }
            if converted { cells.add(1, to: AnalyticsKey(day: day, metric: .paywallPaidConversions, cohort: segment)) }
        }

        guard let firstSeen = history.firstSeenAt else { return }
        let day = AnalyticsCalendar.day(of: firstSeen)
        cells.add(1, to: AnalyticsKey(day: day, metric: .arrivals))
        if !firstViews.isEmpty { cells.add(1, to: AnalyticsKey(day: day, metric: .arrivalsSawPaywall)) }
        if !trialStarts.isEmpty { cells.add(1, to: AnalyticsKey(day: day, metric: .arrivalsTrials)) }
        if !chains.isEmpty { cells.add(1, to: AnalyticsKey(day: day, metric: .arrivalsPaid)) }
    }
}
