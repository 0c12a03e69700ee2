import Foundation

/// The overview of days `from...to` computed from aggregate cells alone (never from the ledger):
/// headline figures, daily balances, monthly flows and rates, products, entitlements and cohorts.
/// Amounts stay in their currencies.
public struct AnalyticsReport: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD` of the first and last day.
    public var from: String
    public var to: String
    public var currencies: [String]
    public var current: AnalyticsSnapshot
    public var daily: [DailyPoint]
    public var months: [MonthSummary]
    public var products: [ProductRow]
    public var entitlements: [EntitlementRow]
    public var cohorts: [CohortRow]
    /// Retention by the month of each customer's first paid day.
    public var retention: [RetentionRow] = []
    /// New paid subscriptions, revenue and proceeds by App Store storefront over the report's days.
    public var storefronts: [StorefrontRow] = []
    /// The amounts in one currency, when the server has exchange rates.
    public var reporting: ReportingCurrency?
    /// Whose figures: real customers', testers' or both (docs/analytics.md).
    public var environment: AnalyticsScope = .all

    public init(from: String, to: String, currencies: [String], current: AnalyticsSnapshot, daily: [DailyPoint], months: [MonthSummary], products: [ProductRow], entitlements: [EntitlementRow], cohorts: [CohortRow]) {
        self.from = from
        self.to = to
        self.currencies = currencies
        self.current = current
        self.daily = daily
        self.months = months
        self.products = products
        self.entitlements = entitlements
        self.cohorts = cohorts
    }
}
