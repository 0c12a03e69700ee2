import Foundation

/// Customers whose first purchase or app-managed trial fell in one month, and what they paid since.
public struct CohortRow: Hashable, Sendable, Codable {
    /// `YYYY-MM`.
    public var cohort: String
    public var customers: Int64
    /// Realized LTV per customer in milliunits, by currency: element `k` is the net revenue of the
    /// cohort's customers up to the end of the `k`-th month after the cohort's month, over `customers`.
    public var lifetimeValue: [String: [Int64]]

    public init(cohort: String, customers: Int64, lifetimeValue: [String: [Int64]]) {
        self.cohort = cohort
        self.customers = customers
        self.lifetimeValue = lifetimeValue
    }
}
