import Foundation

/// A report's amounts converted into one currency with the operator's exchange rates (`--exchange-rates`):
/// which currency, the rates' date, and each month's totals in it. Amounts in a currency the rates don't
/// name are left out and listed.
public struct ReportingCurrency: Hashable, Sendable, Codable {
    public struct Month: Hashable, Sendable, Codable {
        /// `YYYY-MM`.
        public var month: String
        /// Gross revenue, refunds and proceeds (net of refunds and Apple's commission), in milliunits.
        public var revenue: Int64
        public var refunded: Int64
        public var proceeds: Int64
        public var mrrAtEnd: Int64

        public init(month: String, revenue: Int64, refunded: Int64, proceeds: Int64, mrrAtEnd: Int64) {
            self.month = month
            self.revenue = revenue
            self.refunded = refunded
            self.proceeds = proceeds
            self.mrrAtEnd = mrrAtEnd
        }
    }

    public var currency: String
    /// `YYYY-MM-DD`: the day the rates are of.
    public var ratesDate: String
    public var months: [Month]
    /// The MRR at the report's end, in the currency.
    public var mrr: Int64
    /// Currencies with amounts the rates have no rate for (left out of the totals).
    public var unconverted: [String]

    public init(currency: String, ratesDate: String, months: [Month], mrr: Int64, unconverted: [String]) {
        self.currency = currency
        self.ratesDate = ratesDate
        self.months = months
        self.mrr = mrr
        self.unconverted = unconverted
    }
}
