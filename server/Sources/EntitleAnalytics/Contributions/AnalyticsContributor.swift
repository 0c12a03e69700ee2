import AppStoreModels
import EntitleCore
import Foundation

/// Turns a subscriber's history into the aggregate cells it contributes: a pure function, so the
/// aggregates of a ledger are the sum of every subscriber's cells however the events arrived, and an
/// incremental update is the difference between a subscriber's cells before and after an event.
///
/// The definitions are in `docs/analytics.md`.
public struct AnalyticsContributor: Sendable {
    public let catalog: Catalog
    /// The version of what the cells count: raised whenever a metric is added or counted differently,
    /// so servers recompute aggregates computed before (`AnalyticsStore.startRecompute(unlessDefinitionsAre:)`).
    /// 2: paywall funnels, arrivals, reactivations within the month, experiments. 3: payment failures.
    /// 4: prorated refunds' share, monthly instalments of a commitment (MRR, renewals). 5: trials judged
    /// at their end (both kinds), proceeds, retention cohorts, app trial conversions by product and days,
    /// storefront segments. 6: testers' cells apart from real customers' (``AnalyticsEnvironment``).
    public static let definitionsVersion = 6
    /// How long after a period's end a reported grace period may run (Apple's longest is 28 days).
    static let longestGrace: TimeInterval = 60 * 86_400
    static let daysPerMonth = 30.436875

    public init(catalog: Catalog) {
        self.catalog = catalog
    }

    /// The cells of `appUserID` whose events are `events`.
    public func cells(appUserID: AppUserID, events: [LedgerEvent]) -> AnalyticsCells {
        cells(for: SubscriberHistory(appUserID: appUserID, events: events))
    }

    public func cells(for history: SubscriberHistory) -> AnalyticsCells {
        // About ten cells a transaction, a few for the subscriber: reserved, so the cells aren't rehashed
        // as they grow.
        var cells = AnalyticsCells(minimumCapacity: history.purchases.values.reduce(8) { $0 + 10 * $1.transactions.count })
        // When each purchase chain began (its first transaction, trial or paid), whether it paid, and the
        // product of its first paid period.
        var chainStarts: [(start: Date, paid: Bool, product: String)] = []
        // Every paid span of every chain: the subscriber's retention.
        var subscriberPaidSpans: [(start: Date, end: Date, product: String)] = []
        var firstSeen = history.appTrialStartedAt
        var cohortAmounts: [(day: Int, currency: String, amount: Int64)] = []

        for chain in history.purchases.values {
            let transactions = chain.chronological
            var paidSpans: [(start: Date, end: Date, product: String)] = []
            var sawPaid = false
            // Paid service accumulated in the chain before each transaction: Apple's commission falls to
            // 15% after a subscriber's first paid year.
            var paidService: TimeInterval = 0
            for (index, transaction) in transactions.enumerated() {
                guard let purchased = transaction.purchaseDate else { continue }
                let product = transaction.productId ?? ""
                let currency = transaction.currency ?? catalog.currency ?? "XXX"
                let storefront = transaction.storefront ?? ""
                let familyShared = transaction.inAppOwnershipType == .familyShared
                let price = transaction.price ?? catalog.product(ProductID(product))?.price?.milliunits ?? 0
                let free = isFree(transaction, price: price)
                let paid = !familyShared && !free
                let revoked = chain.revocation(of: transaction)
                let next = transactions[(index + 1)...].first { $0.purchaseDate != nil }
                // Replaced before its end: an upgrade (or a crossgrade) takes effect at once, whether or
                // not the replaced transaction's upgraded version has been seen.
                let superseded = next?.purchaseDate.flatMap { replacement in
                    transaction.expiresDate.map { replacement < $0 } } ?? false
                let upgradedAway = (transaction.isUpgraded ?? false) || superseded
                let day = AnalyticsCalendar.day(of: purchased)

                if !familyShared { firstSeen = min(firstSeen ?? purchased, purchased) }
                let proceedsShare = proceedsPerMille(paidServiceBefore: paidService)
                if paid {
                    cells.add(1, to: AnalyticsKey(day: day, metric: .paidTransactions, product: product))
                    cells.add(price, to: AnalyticsKey(day: day, metric: .revenue, product: product, currency: currency))
                    cells.add(Self.share(price, perMille: proceedsShare), to: AnalyticsKey(day: day, metric: .proceeds, product: product, currency: currency))
                    cells.add(price, to: AnalyticsKey(day: day, metric: .storefrontRevenue, currency: currency, cohort: storefront))
                    cells.add(Self.share(price, perMille: proceedsShare), to: AnalyticsKey(day: day, metric: .storefrontProceeds, currency: currency, cohort: storefront))
                    cohortAmounts.append((day, currency, price))
                    if transaction.expiresDate == nil {
                        cells.add(1, to: AnalyticsKey(day: day, metric: .lifetimePurchases, product: product))
                    }
                    if let revoked, !upgradedAway {
                        let refundDay = AnalyticsCalendar.day(of: revoked)
                        cells.add(1, to: AnalyticsKey(day: refundDay, metric: .refunds, product: product))
                        let refunded = Self.refundedAmount(of: transaction, price: price)
                        cells.add(refunded, to: AnalyticsKey(day: refundDay, metric: .refunded, product: product, currency: currency))
                        cells.add(
                            -Self.share(refunded, perMille: proceedsShare), to: AnalyticsKey(day: refundDay, metric: .proceeds, product: product, currency: currency))
                        cells.add(
                            -Self.share(refunded, perMille: proceedsShare),
                            to: AnalyticsKey(day: refundDay, metric: .storefrontProceeds, currency: currency, cohort: storefront))
                        cohortAmounts.append((refundDay, currency, -refunded))
                    }
                }

                guard let expires = transaction.expiresDate else { continue }
                var end = expires
                if superseded, let replacement = next?.purchaseDate { end = min(end, replacement) }
                if let revoked {
                    end = min(end, revoked)
                } else if let grace = chain.graceEnds.filter({ $0 > expires && $0.timeIntervalSince(expires) <= Self.longestGrace }).max() {
                    end = max(end, min(grace, next?.purchaseDate ?? grace))
                }
                end = max(end, purchased)
                let endDay = AnalyticsCalendar.day(of: end)
                let balance: AnalyticsMetric = familyShared ? .activeFamilyShared : free ? .activeTrial : .activePaid
                cells.add(1, to: AnalyticsKey(day: day, metric: balance, product: product))
                cells.add(-1, to: AnalyticsKey(day: endDay, metric: balance, product: product))

                if free, !familyShared, transaction.offerType == .introductoryOffer {
                    let converted = transactions[(index + 1)...].contains(where: { isPaid($0) })
                    cells.add(1, to: AnalyticsKey(day: day, metric: .introTrialStarts, product: product))
                    if converted { cells.add(1, to: AnalyticsKey(day: day, metric: .introTrialConversions, product: product)) }
                    // Judged at the trial's own end (its scheduled end, or earlier when refunded or replaced).
                    var trialEnd = expires
                    if let revoked { trialEnd = min(trialEnd, revoked) }
                    if superseded, let replacement = next?.purchaseDate { trialEnd = min(trialEnd, replacement) }
                    let trialEndDay = AnalyticsCalendar.day(of: max(trialEnd, purchased))
                    cells.add(1, to: AnalyticsKey(day: trialEndDay, metric: .introTrialEnds, product: product))
                    if converted { cells.add(1, to: AnalyticsKey(day: trialEndDay, metric: .introTrialEndConversions, product: product)) }
                }
                guard paid else { continue }
                let monthly = monthlyValue(of: transaction, price: price)
                cells.add(monthly, to: AnalyticsKey(day: day, metric: .mrr, product: product, currency: currency))
                cells.add(-monthly, to: AnalyticsKey(day: endDay, metric: .mrr, product: product, currency: currency))
                paidSpans.append((purchased, end, product))
                paidService += max(0, end.timeIntervalSince(purchased))
                if !sawPaid {
                    cells.add(1, to: AnalyticsKey(day: day, metric: .newPaid, product: product))
                    cells.add(1, to: AnalyticsKey(day: day, metric: .storefrontNewPaid, cohort: storefront))
                }
                sawPaid = true
                if let id = transaction.transactionId, chain.recoveries.contains(id) {
                    cells.add(1, to: AnalyticsKey(day: day, metric: .billingRecoveries, product: product))
                }
                if revoked.map({ $0 >= expires }) ?? true, !upgradedAway {
                    let expiryDay = AnalyticsCalendar.day(of: expires)
                    if chain.failedPeriodEnds.contains(expires) {
                        cells.add(1, to: AnalyticsKey(day: expiryDay, metric: .paymentFailures, product: product))
                    }
                    // A monthly instalment of a 12-month commitment is owed, not chosen: only the
                    // commitment's last period ends at a renewal the customer decides on.
                    if !Self.isCommittedInstalment(transaction) {
                        cells.add(1, to: AnalyticsKey(day: expiryDay, metric: .renewalOpportunities, product: product))
                        if let next, isPaid(next) {
                            cells.add(1, to: AnalyticsKey(day: expiryDay, metric: .renewals, product: product))
                        }
                    }
                }
            }
            addExpirations(of: paidSpans, to: &cells)
            subscriberPaidSpans += paidSpans
            if let start = transactions.first(where: { $0.inAppOwnershipType != .familyShared })?.purchaseDate {
                let firstPaid = transactions.first(where: isPaid)
                chainStarts.append((start, sawPaid || firstPaid != nil, firstPaid?.productId ?? paidSpans.first?.product ?? ""))
            }
        }

        if let started = history.appTrialStartedAt {
            let startDay = AnalyticsCalendar.day(of: started)
            cells.add(1, to: AnalyticsKey(day: startDay, metric: .appTrialStarts))
            let extraDays = history.appTrialExtensions.values.reduce(0) { $0 + min(max($1, 0), AppTrialExtension.longest) }
            let trialEnd = catalog.appTrial.map { $0.trialEnd(startedAt: started, extraDays: extraDays) } ?? started
            let windowEnd = catalog.appTrial?.grace.map { $0.added(to: trialEnd) } ?? trialEnd
            // The trial converts when a purchase made from it (directly, or through an introductory
            // trial that went on to pay) began before the trial and its grace ended.
            let committed = chainStarts.filter { $0.paid && $0.start >= started }.min { $0.start < $1.start }
            let windowEndDay = AnalyticsCalendar.day(of: max(windowEnd, started))
            cells.add(1, to: AnalyticsKey(day: windowEndDay, metric: .appTrialEnds))
            if let committed, catalog.appTrial == nil || committed.start < windowEnd {
                // By the product bought (seed 004's Free → Individual and Free → Family), and how far into the trial.
                cells.add(1, to: AnalyticsKey(day: startDay, metric: .appTrialConversions, product: committed.product))
                cells.add(1, to: AnalyticsKey(day: windowEndDay, metric: .appTrialEndConversions))
                let days = Int64(saturating: committed.start.timeIntervalSince(started) / 86_400, rounding: .down)
                cells.add(days, to: AnalyticsKey(day: startDay, metric: .appTrialConversionDays, product: committed.product))
            }
            let firstPurchase = chainStarts.map(\.start).filter { $0 >= started }.min()
            let runningUntil = min(trialEnd, firstPurchase ?? trialEnd)
            cells.add(1, to: AnalyticsKey(day: startDay, metric: .activeAppTrial))
            cells.add(-1, to: AnalyticsKey(day: AnalyticsCalendar.day(of: max(runningUntil, started)), metric: .activeAppTrial))
        }

        if let firstSeen {
            let firstDay = AnalyticsCalendar.day(of: firstSeen)
            let cohort = AnalyticsCalendar.month(ofDay: firstDay)
            cells.add(1, to: AnalyticsKey(day: firstDay, metric: .cohortCustomers, cohort: cohort))
            for (day, currency, amount) in cohortAmounts {
                cells.add(amount, to: AnalyticsKey(day: day, metric: .cohortRevenue, currency: currency, cohort: cohort))
            }
        }
        addRetention(of: subscriberPaidSpans, to: &cells)
        let purchases = purchases(of: history)
        addFunnelCells(of: history, purchases: purchases, to: &cells)
        addExperimentCells(of: history, purchases: purchases, to: &cells)
        // A tester's cells count apart from real customers' (reports show production by default).
        return cells.placed(in: history.environment)
    }

    /// Paid access of one chain, merged where periods touch: each end is an expiration, each start
    /// after the first a reactivation.
    private func addExpirations(of spans: [(start: Date, end: Date, product: String)], to cells: inout AnalyticsCells) {
        let merged = Self.merged(spans)
        for (index, interval) in merged.enumerated() {
            if index > 0 {
                let day = AnalyticsCalendar.day(of: interval.start)
                cells.add(1, to: AnalyticsKey(day: day, metric: .reactivations, product: interval.firstProduct))
                if AnalyticsCalendar.month(ofDay: AnalyticsCalendar.day(of: merged[index - 1].end)) == AnalyticsCalendar.month(ofDay: day) {
                    cells.add(1, to: AnalyticsKey(day: day, metric: .reactivationsWithinMonth, product: interval.firstProduct))
                }
            }
            cells.add(1, to: AnalyticsKey(day: AnalyticsCalendar.day(of: interval.end), metric: .expirations, product: interval.lastProduct))
        }
    }

    /// Paid spans merged where they touch (within a second), in order: each with its first and last product.
    static func merged(_ spans: [(start: Date, end: Date, product: String)]) -> [(start: Date, end: Date, firstProduct: String, lastProduct: String)] {
        var merged: [(start: Date, end: Date, firstProduct: String, lastProduct: String)] = []
        for span in spans.sorted(by: { ($0.start, $0.end) < ($1.start, $1.end) }) {
            if let last = merged.last, span.start <= last.end.addingTimeInterval(1) {
                if span.end >= last.end {
                    merged[merged.count - 1].end = span.end
                    merged[merged.count - 1].lastProduct = span.product
                }
            } else {
                merged.append((span.start, span.end, span.product, span.product))
            }
        }
        return merged
    }

    /// The subscriber's retention cohort (the month of their first paid day, every chain together) and
    /// their paid access in it: +1 when it starts, −1 when it ends, each interval of every chain merged.
    private func addRetention(of spans: [(start: Date, end: Date, product: String)], to cells: inout AnalyticsCells) {
        let merged = Self.merged(spans)
        guard let first = merged.first else { return }
        let firstDay = AnalyticsCalendar.day(of: first.start)
        let cohort = AnalyticsCalendar.month(ofDay: firstDay)
        cells.add(1, to: AnalyticsKey(day: firstDay, metric: .retentionCustomers, cohort: cohort))
        for interval in merged {
            cells.add(1, to: AnalyticsKey(day: AnalyticsCalendar.day(of: interval.start), metric: .retentionActive, cohort: cohort))
            cells.add(-1, to: AnalyticsKey(day: AnalyticsCalendar.day(of: interval.end), metric: .retentionActive, cohort: cohort))
        }
    }

    /// The developer's share of a sale, in thousandths: 850 in the Small Business Program or once a
    /// chain has a year of paid service, 700 before (Apple's commission of 15% or 30%, before taxes).
    func proceedsPerMille(paidServiceBefore service: TimeInterval) -> Int64 {
        catalog.smallBusinessProgram || service >= 365 * 86_400 ? 850 : 700
    }

    /// `amount` × `perMille` / 1000, without overflow.
    static func share(_ amount: Int64, perMille: Int64) -> Int64 {
        let (product, overflow) = amount.multipliedReportingOverflow(by: perMille)
        return overflow ? amount / 1000 * perMille : product / 1000
    }

    /// How much of `price` a refund of `transaction` gave back: the share Apple gives for a prorated
    /// refund (`REFUND_PRORATED`, `revocationPercentage` in thousandths of a percent, 0 to 100,000 as
    /// the edge admits it), else all of it.
    static func refundedAmount(of transaction: JWSTransactionDecodedPayload, price: Int64) -> Int64 {
        guard transaction.revocationType == .refundProrated, let share = transaction.revocationPercentage else { return price }
        let (product, overflow) = price.multipliedReportingOverflow(by: Int64(min(max(share, 0), 100_000)))
        return overflow ? price : product / 100_000
    }

    /// A period given away: a free offer (free trial, or any offer at price zero).
    func isFree(_ transaction: JWSTransactionDecodedPayload, price: Int64) -> Bool {
        transaction.offerDiscountType == .freeTrial || price <= 0
    }

    func isPaid(_ transaction: JWSTransactionDecodedPayload) -> Bool {
        let price = transaction.price ?? catalog.product(ProductID(transaction.productId ?? ""))?.price?.milliunits ?? 0
        return transaction.inAppOwnershipType != .familyShared && !isFree(transaction, price: price)
    }

    /// Whether `transaction` pays a billing period of a 12-month commitment that is not its last: the
    /// next instalment is owed whatever the customer chooses.
    static func isCommittedInstalment(_ transaction: JWSTransactionDecodedPayload) -> Bool {
        guard let info = transaction.commitmentInfo, let period = info.billingPeriodNumber, let total = info.totalBillingPeriods else { return false }
        return period < total
    }

    /// `price` normalised to one month: by the product's period in the catalog (a prepaid
    /// introductory offer by the period it covers; a monthly instalment of a commitment by its share of
    /// the product's period), else by the transaction's own length.
    func monthlyValue(of transaction: JWSTransactionDecodedPayload, price: Int64) -> Int64 {
        var months: Double?
        let prepaid = transaction.offerType == .introductoryOffer && transaction.offerDiscountType == .payUpFront
        if !prepaid, let period = catalog.product(ProductID(transaction.productId ?? ""))?.period {
            months = Double(period.years * 12 + period.months) + Double(period.weeks * 7 + period.days) / Self.daysPerMonth
            if transaction.billingPlanType == .monthly || transaction.commitmentInfo != nil {
                // The product's period is the commitment; the price is one of its instalments.
                let instalments = transaction.commitmentInfo?.totalBillingPeriods.map { Double(max($0, 1)) } ?? 12
                months = months.map { $0 / instalments }
            }
        }
        if months == nil || months == 0, let start = transaction.purchaseDate, let end = transaction.expiresDate, end > start {
            months = end.timeIntervalSince(start) / 86_400 / Self.daysPerMonth
        }
        guard let months, months > 0 else { return price }
        return Int64(saturating: Double(price) / months)
    }
}
