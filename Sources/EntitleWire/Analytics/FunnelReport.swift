import Foundation

/// The paywall funnels of days `from...to`, computed from aggregate cells alone: every paywall
/// together, then by paywall, offering, trigger and feature; the path from first seen to paid; and
/// the same by month. Definitions are in docs/growth.md.
public struct FunnelReport: Hashable, Sendable, Codable {
    /// `YYYY-MM-DD` of the first and last day.
    public var from: String
    public var to: String
    public var currencies: [String]
    /// Every paywall together (`all`) first, then each segment, by dimension, most impressions first.
    public var segments: [FunnelRow]
    public var path: ArrivalPath
    public var months: [FunnelMonth]
    /// Whose figures: real customers', testers' or both (docs/analytics.md).
    public var environment: AnalyticsScope = .all

    public init(from: String, to: String, currencies: [String], segments: [FunnelRow], path: ArrivalPath, months: [FunnelMonth]) {
        self.from = from
        self.to = to
        self.currencies = currencies
        self.segments = segments
        self.path = path
        self.months = months
    }
}
