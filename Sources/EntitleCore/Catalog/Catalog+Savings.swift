import Foundation

extension Catalog {
    /// The savings of every yearly auto-renewable product against a monthly product granting exactly
    /// the same entitlements, sorted by yearly product. Products without prices or entitlements are
    /// skipped.
    public var yearlySavings: [YearlySavings] {
        let subscriptions = products.filter { $0.kind == .autoRenewable && $0.price != nil && !$0.entitlementIDs.isEmpty }
        return subscriptions.filter { $0.period?.wholeMonths == 12 }.compactMap { yearly in
            let monthly = subscriptions.filter { $0.period?.wholeMonths == 1 && $0.entitlementIDs == yearly.entitlementIDs }
                .min { ($0.price!, $0.id) < ($1.price!, $1.id) }
            return monthly.map { YearlySavings(yearly: yearly, yearlyPrice: yearly.price!, monthly: $0, monthlyPrice: $0.price!) }
        }
    }
}
