import Foundation

/// One paywall segment's funnel over a report's days: what its paywalls did, and what the
/// subscribers who first saw it in those days went on to buy (docs/growth.md).
public struct FunnelRow: Hashable, Sendable, Codable {
    /// What the row groups by: `all`, `paywall`, `offering`, `trigger` or `feature`.
    public var dimension: String
    /// The paywall's, offering's, trigger's or feature's name; empty for `all`, and for events that gave
    /// no trigger or feature.
    public var value: String
    public var impressions: Int64
    /// Subscribers who saw it for the first time in the report's days.
    public var viewers: Int64
    public var closes: Int64
    /// Closed without buying, per impression.
    public var bounceRate: Double?
    public var purchasesStarted: Int64
    public var purchasesCancelled: Int64
    public var purchasesFailed: Int64
    public var purchased: Int64
    /// Viewers who began an introductory free trial at or after their first view.
    public var trialConversions: Int64
    public var trialConversionRate: Double?
    /// Viewers who made a paid purchase at or after their first view.
    public var paidConversions: Int64
    public var paidConversionRate: Double?
    /// The viewers' net revenue from those purchases on, by currency, in milliunits.
    public var revenue: [String: Int64]
    /// That revenue over the viewers.
    public var revenuePerViewer: [String: Int64]

    public init(dimension: String, value: String, impressions: Int64, viewers: Int64, closes: Int64, bounceRate: Double?, purchasesStarted: Int64, purchasesCancelled: Int64, purchasesFailed: Int64, purchased: Int64, trialConversions: Int64, trialConversionRate: Double?, paidConversions: Int64, paidConversionRate: Double?, revenue: [String: Int64], revenuePerViewer: [String: Int64]) {
        self.dimension = dimension
        self.value = value
        self.impressions = impressions
        self.viewers = viewers
        self.closes = closes
        self.bounceRate = bounceRate
        self.purchasesStarted = purchasesStarted
        self.purchasesCancelled = purchasesCancelled
        self.purchasesFailed = purchasesFailed
        self.purchased = purchased
        self.trialConversions = trialConversions
        self.trialConversionRate = trialConversionRate
        self.paidConversions = paidConversions
        self.paidConversionRate = paidConversionRate
        self.revenue = revenue
        self.revenuePerViewer = revenuePerViewer
    }
}
