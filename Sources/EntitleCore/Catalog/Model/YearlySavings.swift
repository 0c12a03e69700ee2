import Foundation

/// What a yearly subscription saves against twelve months of the monthly subscription that grants
/// the same entitlements: 67.00 a year against 7.99 a month saves 30%.
public struct YearlySavings: Hashable, Sendable {
    public var yearlyProductID: ProductID
    public var monthlyProductID: ProductID
    public var yearlyPrice: Price
    public var monthlyPrice: Price
    /// Whole percent saved, rounded to the nearest (halves up), as the seeds' paywalls show it: PantryPal's
    /// 49.99 a year against 4.99 a month saves 16.52%, "Save 17%".
    public var percent: Int

    public init(yearly: Product, yearlyPrice: Price, monthly: Product, monthlyPrice: Price) {
        yearlyProductID = yearly.id
        monthlyProductID = monthly.id
        self.yearlyPrice = yearlyPrice
        self.monthlyPrice = monthlyPrice
        let twelveMonths = monthlyPrice.amount * 12
        var ratio = (twelveMonths - yearlyPrice.amount) / twelveMonths * 100
        var rounded = Decimal()
        NSDecimalRound(&rounded, &ratio, 0, .plain)
        percent = NSDecimalNumber(decimal: rounded).intValue
    }

    /// What a paywall says of a saving of `percent` whole percent: "Save 17%" (seed 002's words); the
    /// server's offerings carry the percent, and the SDK and the sample app show it with this.
    public static func label(percent: Int) -> String { "Save \(percent)%" }
}
