import Foundation

extension Catalog {
    /// The savings of every yearly auto-renewable product against a monthly product granting exactly
    /// the same entitlements, sorted by yearly product. Products without prices or entitlements are
    /// skipped.
    public var yearlySavings: [YearlySavings] {
        let priced = products.compactMap { product in
            product.price.flatMap { price in product.kind == .autoRenewable && !product.entitlementIDs.isEmpty ? (product, price) : nil }
        }
        return priced.filter { $0.0.period?.wholeMonths == 12 }.compactMap { yearly, yearlyPrice in
            let monthly = priced.filter { $0.0.period?.wholeMonths == 1 && $0.0.entitlementIDs == yearly.entitlementIDs }
                .min { ($0.1, $0.0.id) < ($1.1, $1.0.id) }
            return monthly.map { YearlySavings(yearly: yearly, yearlyPrice: yearlyPrice, monthly: $0.0, monthlyPrice: $0.1) }
        }
    }
}
