import Foundation

/// Customers whose first paid day fell in one month, and how many of them still had paid access at the
/// end of each month since (seed 004's Month 1, 3 and 6 churn).
public struct RetentionRow: Hashable, Sendable, Codable {
    /// `YYYY-MM`.
    public var cohort: String
    public var customers: Int64
    /// Element `k`: the cohort's customers with paid access at the end of the `k`-th month after the
    /// cohort's month (0: the cohort's own month), up to the report's last day.
    public var active: [Int64]
    /// `active[k] ÷ customers`, rounded to four places.
    public var retention: [Double]

    public init(cohort: String, customers: Int64, active: [Int64]) {
        self.cohort = cohort
        self.customers = customers
        self.active = active
        self.retention = active.map { customers > 0 ? (Double($0) / Double(customers) * 10_000).rounded() / 10_000 : 0 }
    }
}
