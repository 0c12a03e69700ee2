import EntitleCore
import EntitleWire
import Foundation

/// The overview computed from aggregate cells alone (never from the ledger).
extension AnalyticsReport {
    /// The report of days `from...to` (UTC days, see ``AnalyticsCalendar``). `cells` must hold every
    /// cell up to `to` (balances are sums of changes since the beginning).
    public init(cells: AnalyticsCells, catalog: Catalog, from: Int, to: Int) {
        let to = max(from, to)
        var tally = Tally()
        tally.from = from
        for (key, value) in cells where key.day <= to { tally.add(key, value) }
        let currencies = tally.currencies.sorted()

        // Daily balances: prefix sums from the first change up to `to`.
        var daily: [DailyPoint] = []
        var balanceAt: [Int: DailyPoint] = [:]
        var running: [AnalyticsMetric: Int64] = [:]
        var runningMRR: [String: Int64] = [:]
        for (day, values) in tally.balances where day < from - 1 {
            for (metric, value) in values { running[metric, default: 0].addSaturating(value) }
        }
        for (day, values) in tally.mrr where day < from - 1 {
            for (currency, value) in values { runningMRR[currency, default: 0].addSaturating(value) }
        }
        for day in (from - 1)...to {
            for (metric, value) in tally.balances[day] ?? [:] { running[metric, default: 0].addSaturating(value) }
            for (currency, value) in tally.mrr[day] ?? [:] { runningMRR[currency, default: 0].addSaturating(value) }
            let point = DailyPoint(
                date: AnalyticsCalendar.isoDate(ofDay: day), activePaid: running[.activePaid] ?? 0,
                activeTrials: running[.activeTrial] ?? 0, activeAppTrials: running[.activeAppTrial] ?? 0,
                activeFamilyShared: running[.activeFamilyShared] ?? 0,
                mrr: runningMRR.filter { $0.value != 0 })
            balanceAt[day] = point
            if day >= from { daily.append(point) }
        }

        var months: [MonthSummary] = []
        for (name, start, last) in AnalyticsCalendar.months(from: from, to: to) {
            let flows = tally.flows(from: start, to: last)
            let amounts = tally.amounts(from: start, to: last)
            let atStart = balanceAt[start - 1]?.activePaid ?? 0
            let atEnd = balanceAt[last]?.activePaid ?? 0
            let averageActive = Double((start...last).reduce(Int64(0)) { $0.saturatingAdding(balanceAt[$1]?.activePaid ?? 0) }) / Double(last - start + 1)
            var arpu: [String: Int64] = [:]
            if averageActive > 0 {
                for currency in currencies {
                    let net = (amounts[.revenue]?[currency] ?? 0).saturatingSubtracting(amounts[.refunded]?[currency] ?? 0)
                    if net != 0 { arpu[currency] = Int64(saturating: Double(net) / averageActive) }
                }
            }
            let value = { (metric: AnalyticsMetric) in flows[metric] ?? 0 }
            var summary = MonthSummary(
                month: name, activeAtStart: atStart, activeAtEnd: atEnd, newPaid: value(.newPaid),
                introTrialStarts: value(.introTrialStarts), introTrialConversions: value(.introTrialConversions),
                introTrialConversionRate: Self.rate(value(.introTrialConversions), value(.introTrialStarts)),
                appTrialStarts: value(.appTrialStarts), appTrialConversions: value(.appTrialConversions),
                appTrialConversionRate: Self.rate(value(.appTrialConversions), value(.appTrialStarts)),
                expirations: value(.expirations), reactivations: value(.reactivations),
                churnRate: Self.rate(value(.expirations).saturatingSubtracting(value(.reactivationsWithinMonth)), atStart),
                refunds: value(.refunds), paidTransactions: value(.paidTransactions),
                refundRate: Self.rate(value(.refunds), value(.paidTransactions)),
                renewalOpportunities: value(.renewalOpportunities), renewals: value(.renewals),
                renewalRate: Self.rate(value(.renewals), value(.renewalOpportunities)),
                billingRecoveries: value(.billingRecoveries),
                revenue: amounts[.revenue] ?? [:], refunded: amounts[.refunded] ?? [:], arpu: arpu,
                mrrAtEnd: balanceAt[last]?.mrr ?? [:])
            summary.proceeds = (amounts[.proceeds] ?? [:]).filter { $0.value != 0 }
            let byProduct = tally.productFlows(from: start, to: last)
            summary.appTrialConversionsByProduct = byProduct.compactMapValues { $0[.appTrialConversions] }.filter { !$0.key.isEmpty && $0.value != 0 }
            let conversionDays = byProduct.values.reduce(Int64(0)) { $0.saturatingAdding($1[.appTrialConversionDays] ?? 0) }
            summary.appTrialMeanDaysToConvert = value(.appTrialConversions) > 0
                ? (Double(conversionDays) / Double(value(.appTrialConversions)) * 10).rounded() / 10 : nil
            summary.churnRateByPeriod = Self.churnByPeriod(catalog: catalog, flows: byProduct, activeAtStart: tally.productActive(through: start - 1))
            months.append(summary)
        }

        let end = balanceAt[to] ?? DailyPoint(date: AnalyticsCalendar.isoDate(ofDay: to), activePaid: 0, activeTrials: 0, activeAppTrials: 0, activeFamilyShared: 0, mrr: [:])
        let products = tally.productBalances.keys.sorted().compactMap { product -> ProductRow? in
            let balances = tally.productBalances[product] ?? [:]
            let mrr = (tally.productMRR[product] ?? [:]).filter { $0.value != 0 }
            let row = ProductRow(
                product: product, entitlements: catalog.entitlements(forProduct: ProductID(product)).map(\.id).sorted(),
                activePaid: balances[.activePaid] ?? 0, activeTrials: balances[.activeTrial] ?? 0,
                activeFamilyShared: balances[.activeFamilyShared] ?? 0, mrr: mrr)
            return row.activePaid == 0 && row.activeTrials == 0 && row.activeFamilyShared == 0 && mrr.isEmpty ? nil : row
        }
        var entitlementRows: [String: EntitlementRow] = [:]
        for row in products {
            for entitlement in row.entitlements {
                var total = entitlementRows[entitlement] ?? EntitlementRow(entitlement: entitlement, activePaid: 0, activeTrials: 0, activeFamilyShared: 0, mrr: [:])
                total.activePaid.addSaturating(row.activePaid)
                total.activeTrials.addSaturating(row.activeTrials)
                total.activeFamilyShared.addSaturating(row.activeFamilyShared)
                for (currency, value) in row.mrr { total.mrr[currency, default: 0].addSaturating(value) }
                entitlementRows[entitlement] = total
            }
        }

        let toMonth = Self.monthIndex(AnalyticsCalendar.month(ofDay: to)) ?? 0
        let cohorts = tally.cohortCustomers.keys.sorted().compactMap { cohort -> CohortRow? in
            guard let customers = tally.cohortCustomers[cohort], customers > 0, let start = Self.monthIndex(cohort) else { return nil }
            let span = max(0, toMonth - start) + 1
            var ltv: [String: [Int64]] = [:]
            for (currency, byOffset) in tally.cohortRevenue[cohort] ?? [:] {
                var cumulative: Int64 = 0
                ltv[currency] = (0..<span).map { offset in
                    cumulative.addSaturating(byOffset[offset] ?? 0)
                    return Int64(saturating: Double(cumulative) / Double(customers))
                }
            }
            return CohortRow(cohort: cohort, customers: customers, lifetimeValue: ltv)
        }

        let retention = tally.retentionCustomers.keys.sorted().compactMap { cohort -> RetentionRow? in
            guard let customers = tally.retentionCustomers[cohort], customers > 0, let start = Self.monthIndex(cohort), start <= toMonth else { return nil }
            let changes = (tally.retentionActive[cohort] ?? [:]).sorted { $0.key < $1.key }
            var active: [Int64] = []
            var (running, next) = (Int64(0), 0)
            for offset in 0...(toMonth - start) {
                let month = start + offset
                // The month's last day, or the report's when the month runs past it.
                let last = min(to, AnalyticsCalendar.firstDayOfNextMonth(after: AnalyticsCalendar.days(year: month / 12, month: month % 12 + 1, day: 1)) - 1)
                while next < changes.count, changes[next].key <= last {
                    running.addSaturating(changes[next].value)
                    next += 1
                }
                active.append(running)
            }
            return RetentionRow(cohort: cohort, customers: customers, active: active)
        }

        var report = AnalyticsReport(
            from: AnalyticsCalendar.isoDate(ofDay: from), to: AnalyticsCalendar.isoDate(ofDay: to), currencies: currencies,
            current: AnalyticsSnapshot(
                date: end.date, activePaid: end.activePaid, activeTrials: end.activeTrials, activeAppTrials: end.activeAppTrials,
                activeFamilyShared: end.activeFamilyShared, mrr: end.mrr, arr: end.mrr.mapValues { $0 * 12 }),
            daily: daily, months: months, products: products, entitlements: entitlementRows.keys.sorted().compactMap { entitlementRows[$0] },
            cohorts: cohorts)
        report.retention = retention
        report.storefronts = tally.storefronts.keys.sorted().map { code in
            let values = tally.storefronts[code] ?? [:]
            return StorefrontRow(
                storefront: code, newPaid: values[.storefrontNewPaid]?[""] ?? 0,
                revenue: (values[.storefrontRevenue] ?? [:]).filter { $0.value != 0 }, proceeds: (values[.storefrontProceeds] ?? [:]).filter { $0.value != 0 })
        }.filter { $0.newPaid != 0 || !$0.revenue.isEmpty || !$0.proceeds.isEmpty }
        self = report
    }

    /// Churn by billing period: each period's products' ends in the month, less those that came back within
    /// it, over that period's products active at the month's start.
    static func churnByPeriod(
        catalog: Catalog, flows: [String: [AnalyticsMetric: Int64]], activeAtStart: [String: Int64]
    ) -> [String: Double] {
        var ended: [String: Int64] = [:], active: [String: Int64] = [:]
        func period(_ product: String) -> String? { catalog.product(ProductID(product))?.period?.description }
        for (product, values) in flows {
            guard let period = period(product) else { continue }
            ended[period, default: 0].addSaturating((values[.expirations] ?? 0).saturatingSubtracting(values[.reactivationsWithinMonth] ?? 0))
        }
        for (product, count) in activeAtStart {
            guard let period = period(product) else { continue }
            active[period, default: 0].addSaturating(count)
        }
        var rates: [String: Double] = [:]
        for (period, count) in active {
            if let value = rate(ended[period] ?? 0, count) { rates[period] = value }
        }
        return rates
    }

    public static func rate(_ part: Int64, _ whole: Int64) -> Double? {
        guard whole > 0 else { return nil }
        return (Double(part) / Double(whole) * 10_000).rounded() / 10_000
    }

    /// `YYYY-MM` (as ``AnalyticsCalendar/month(ofDay:)`` names months) as a month count; `nil` for
    /// anything else.
    static func monthIndex(_ month: String) -> Int? {
        var (year, number, position) = (0, 0, 0)
        for byte in month.utf8 {
            let digit = Int(byte) - Int(UInt8(ascii: "0"))
            switch position {
            case 0..<4 where (0...9).contains(digit): year = year * 10 + digit
            case 4 where byte == UInt8(ascii: "-"): break
            case 5...6 where (0...9).contains(digit): number = number * 10 + digit
            default: return nil
            }
            position += 1
        }
        guard position == 7, (1...12).contains(number) else { return nil }
        return year * 12 + number - 1
    }

    /// Cells grouped the ways the report reads them.
    private struct Tally {
        var currencies: Set<String> = []
        var balances: [Int: [AnalyticsMetric: Int64]] = [:]
        var mrr: [Int: [String: Int64]] = [:]
        var flowsByDay: [Int: [AnalyticsMetric: Int64]] = [:]
        var amountsByDay: [Int: [AnalyticsMetric: [String: Int64]]] = [:]
        var productBalances: [String: [AnalyticsMetric: Int64]] = [:]
        var productMRR: [String: [String: Int64]] = [:]
        var cohortCustomers: [String: Int64] = [:]
        var cohortRevenue: [String: [String: [Int: Int64]]] = [:]
        var productFlowsByDay: [Int: [String: [AnalyticsMetric: Int64]]] = [:]
        /// Storefront segments over the report's days: by storefront, metric and currency (empty for counts).
        var storefronts: [String: [AnalyticsMetric: [String: Int64]]] = [:]
        var from = Int.min
        var productActiveByDay: [Int: [String: Int64]] = [:]
        var retentionCustomers: [String: Int64] = [:]
        var retentionActive: [String: [Int: Int64]] = [:]

        mutating func add(_ key: AnalyticsKey, _ value: Int64) {
            // The funnels' cells are ``FunnelReport``'s.
            if key.metric.isFunnel || key.metric.isExperiment { return }
            if !key.currency.isEmpty { currencies.insert(key.currency) }
            switch key.metric {
            case .mrr:
                mrr[key.day, default: [:]][key.currency, default: 0].addSaturating(value)
                productMRR[key.product, default: [:]][key.currency, default: 0].addSaturating(value)
            case .activePaid, .activeTrial, .activeFamilyShared, .activeAppTrial:
                balances[key.day, default: [:]][key.metric, default: 0].addSaturating(value)
                if !key.product.isEmpty { productBalances[key.product, default: [:]][key.metric, default: 0].addSaturating(value) }
                if key.metric == .activePaid, !key.product.isEmpty { productActiveByDay[key.day, default: [:]][key.product, default: 0].addSaturating(value) }
            case .storefrontNewPaid, .storefrontRevenue, .storefrontProceeds:
                if key.day >= from { storefronts[key.cohort, default: [:]][key.metric, default: [:]][key.currency, default: 0].addSaturating(value) }
            case .retentionCustomers:
                retentionCustomers[key.cohort, default: 0].addSaturating(value)
            case .retentionActive:
                retentionActive[key.cohort, default: [:]][key.day, default: 0].addSaturating(value)
            case .appTrialConversionDays:
                productFlowsByDay[key.day, default: [:]][key.product, default: [:]][key.metric, default: 0].addSaturating(value)
            case .revenue, .refunded, .proceeds:
                amountsByDay[key.day, default: [:]][key.metric, default: [:]][key.currency, default: 0].addSaturating(value)
            case .cohortCustomers:
                cohortCustomers[key.cohort, default: 0].addSaturating(value)
            case .cohortRevenue:
                guard let start = AnalyticsReport.monthIndex(key.cohort) else { return }
                let day = AnalyticsCalendar.civil(key.day)
                let month = day.year * 12 + day.month - 1
                cohortRevenue[key.cohort, default: [:]][key.currency, default: [:]][max(0, month - start), default: 0].addSaturating(value)
            default:
                flowsByDay[key.day, default: [:]][key.metric, default: 0].addSaturating(value)
                if key.metric == .expirations || key.metric == .reactivationsWithinMonth || key.metric == .appTrialConversions {
                    productFlowsByDay[key.day, default: [:]][key.product, default: [:]][key.metric, default: 0].addSaturating(value)
                }
            }
        }

        /// The flows by product over `from...to`.
        func productFlows(from: Int, to: Int) -> [String: [AnalyticsMetric: Int64]] {
            var total: [String: [AnalyticsMetric: Int64]] = [:]
            for day in from...to {
                for (product, values) in productFlowsByDay[day] ?? [:] {
                    for (metric, value) in values { total[product, default: [:]][metric, default: 0].addSaturating(value) }
                }
            }
            return total
        }

        /// Active paid subscriptions by product at the end of `day`.
        func productActive(through day: Int) -> [String: Int64] {
            var total: [String: Int64] = [:]
            for (changeDay, values) in productActiveByDay where changeDay <= day {
                for (product, value) in values { total[product, default: 0].addSaturating(value) }
            }
            return total
        }

        func flows(from: Int, to: Int) -> [AnalyticsMetric: Int64] {
            var total: [AnalyticsMetric: Int64] = [:]
            for day in from...to {
                for (metric, value) in flowsByDay[day] ?? [:] { total[metric, default: 0].addSaturating(value) }
            }
            return total
        }

        func amounts(from: Int, to: Int) -> [AnalyticsMetric: [String: Int64]] {
            var total: [AnalyticsMetric: [String: Int64]] = [:]
            for day in from...to {
                for (metric, byCurrency) in amountsByDay[day] ?? [:] {
                    for (currency, value) in byCurrency { total[metric, default: [:]][currency, default: 0].addSaturating(value) }
                }
            }
            return total
        }
    }
}
