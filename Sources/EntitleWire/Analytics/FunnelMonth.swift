import Foundation

/// A month of a funnel report: every paywall together, and the path of that month's arrivals.
public struct FunnelMonth: Hashable, Sendable, Codable {
    /// `YYYY-MM`.
    public var month: String
    public var paywalls: FunnelRow
    public var path: ArrivalPath

    public init(month: String, paywalls: FunnelRow, path: ArrivalPath) {
        self.month = month
        self.paywalls = paywalls
        self.path = path
    }
}
