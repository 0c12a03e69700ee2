import Foundation

extension CatalogResolver {
    /// The entitlements file's `anomalies`: counts of 2 to 1000 within 1 to 365 days (each left out keeps
    /// its default), and usage norms of declared quotas, each at least 1.
    mutating func resolveAnomalyRules(quotas: Set<String>) -> AnomalyRules {
        var rules = AnomalyRules.standard
        guard let document = document.anomalies else { return rules }
        let path = JSONPath().key("anomalies")
        func burst(_ given: AnomaliesDocument.Burst?, _ key: String, into rule: inout AnomalyRules.Burst) {
            guard let given else { return }
            if let count = given.count {
                if AnomalyRules.counts.contains(count) {
                    rule.count = count
                } else {
                    fail(.invalidValue, entitlements: path.key(key).key("count"), "a count is 2 to 1000", hint: "3")
                }
            }
            if let days = given.days {
                if AnomalyRules.days.contains(days) {
                    rule.days = days
                } else {
                    fail(.invalidValue, entitlements: path.key(key).key("days"), "a span is 1 to 365 days", hint: "30")
                }
            }
        }
        burst(document.sharedPurchase, "sharedPurchase", into: &rules.sharedPurchase)
        burst(document.trialBurst, "trialBurst", into: &rules.trialBurst)
        for (quota, norm) in (document.usage ?? [:]).sorted(by: { $0.key < $1.key }) {
            guard quotas.contains(quota) else {
                fail(.unknownFeature, entitlements: path.key("usage").key(quota), "\(quota) is not a quota of this app",
                     hint: suggestion(for: quota, among: Array(quotas), noun: "quotas"))
                continue
            }
            guard norm >= 1 else {
                fail(.invalidValue, entitlements: path.key("usage").key(quota), "a usage norm is at least 1", hint: "200")
                continue
            }
            rules.usageNorms[quota] = norm
        }
        return rules
    }
}
