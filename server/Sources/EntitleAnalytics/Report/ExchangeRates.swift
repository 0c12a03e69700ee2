import EntitleCore
import EntitleWire
import Foundation

/// The operator's exchange rates into one reporting currency (`entitle serve --exchange-rates FILE`),
/// dated: Entitle fetches none, so the figures say which rates of which day they used.
///
/// ```json
/// { "currency": "USD", "date": "2026-11-30", "rates": { "EUR": 1.0823, "GBP": 1.2712, "JPY": 0.00667 } }
/// ```
///
/// Each rate is what one unit of that currency is worth in `currency` (1 EUR = 1.0823 USD).
public struct ExchangeRates: Hashable, Sendable {
    public var currency: String
    /// `YYYY-MM-DD`.
    public var date: String
    public var rates: [String: Double]

    /// A file that isn't rates as above: its problem, for the command line to print.
    public struct Invalid: Error, CustomStringConvertible {
        public static let code = "exchangeRates.invalid"
        public var description: String
    }

    private struct Document: Decodable {
        var currency: String
        var date: String
        var rates: [String: Double]
    }

    public init(currency: String, date: String, rates: [String: Double]) {
        self.currency = currency
        self.date = date
        self.rates = rates
    }

    /// Reads and checks a rates file: ISO 4217 codes (three capital letters), a real calendar day, every
    /// rate a finite number above zero.
    public init(json: Data) throws(Invalid) {
        let document: Document
        do {
            document = try JSONDecoder().decode(Document.self, from: json)
        } catch {
            throw Invalid(description: "the file is not {\"currency\", \"date\", \"rates\"} JSON: \(error)")
        }
        func isCode(_ text: String) -> Bool { text.utf8.count == 3 && text.utf8.allSatisfy { (65...90).contains($0) } }
        guard isCode(document.currency) else { throw Invalid(description: "currency \(document.currency) is not an ISO 4217 code such as USD") }
        guard let day = AnalyticsCalendar.day(ofISODate: document.date), day >= 0 else {
            throw Invalid(description: "date \(document.date) is not a day (YYYY-MM-DD) from 1970")
        }
        for (code, rate) in document.rates {
            guard isCode(code) else { throw Invalid(description: "\(code) is not an ISO 4217 code") }
            guard rate.isFinite, rate > 0, rate < 1e9 else { throw Invalid(description: "the rate of \(code) is not a number above zero") }
        }
        self.init(currency: document.currency, date: document.date, rates: document.rates)
    }

    /// What one unit of `code` is worth in the reporting currency; `nil` when the rates don't say.
    public func rate(of code: String) -> Double? { code == currency ? 1 : rates[code] }

    /// `amounts` (milliunits by currency) in the reporting currency, and the currencies it has no rate for.
    public func convert(_ amounts: [String: Int64]) -> (total: Int64, unconverted: [String]) {
        var total: Int64 = 0
        var unconverted: [String] = []
        for (code, amount) in amounts where amount != 0 {
            guard let rate = rate(of: code) else {
                unconverted.append(code)
                continue
            }
            total.addSaturating(Int64(saturating: Double(amount) * rate))
        }
        return (total, unconverted)
    }

    /// `report`'s months and MRR in the reporting currency.
    public func reporting(_ report: AnalyticsReport) -> ReportingCurrency {
        var unconverted = Set<String>()
        func converted(_ amounts: [String: Int64]) -> Int64 {
            let (total, missing) = convert(amounts)
            unconverted.formUnion(missing)
            return total
        }
        let months = report.months.map { month in
            ReportingCurrency.Month(
                month: month.month, revenue: converted(month.revenue), refunded: converted(month.refunded), proceeds: converted(month.proceeds),
                mrrAtEnd: converted(month.mrrAtEnd))
        }
        return ReportingCurrency(
            currency: currency, ratesDate: date, months: months, mrr: converted(report.current.mrr), unconverted: unconverted.sorted())
    }
}
