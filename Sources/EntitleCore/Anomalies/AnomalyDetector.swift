import AppStoreModels
import Foundation

/// The one rule set that flags anomalies (``AnomalyRules``), from a subscriber's facts at an instant:
/// the server's answer, its webhooks and the dashboard all read it.
public enum AnomalyDetector {
    /// The anomalies of `facts` at `now` under `catalog`'s rules: shared purchases by original
    /// transaction ID, then trial bursts by appAccountToken, then usage by quota.
    public static func anomalies(in facts: SubscriberFacts, catalog: Catalog, at now: Date) -> [Anomaly] {
        let rules = catalog.anomalyRules
        var found: [Anomaly] = []
        for original in facts.purchases.keys.sorted() {
            let claims = (facts.purchaseClaims[original.rawValue] ?? [:]).values.filter { $0 <= now }.sorted()
            if let since = completion(of: rules.sharedPurchase, in: claims) {
                found.append(Anomaly(
                    kind: .sharedPurchase, since: since, count: claims.count, threshold: rules.sharedPurchase.count, originalTransactionID: original))
            }
        }

        var offers: [UUID: [Date]] = [:]
        for chain in facts.purchases.values {
            guard let began = chain.introductoryOfferAt, began <= now, let token = chain.currentTransaction?.appAccountToken else { continue }
            offers[token, default: []].append(began)
        }
        for (token, dates) in offers.sorted(by: { $0.key.uuidString < $1.key.uuidString }) {
            let dates = dates.sorted()
            if let since = completion(of: rules.trialBurst, in: dates) {
                found.append(Anomaly(kind: .trialBurst, since: since, count: dates.count, threshold: rules.trialBurst.count, appAccountToken: token))
            }
        }

        for quota in catalog.quotas {
            guard let norm = rules.usageNorms[quota.name] else { continue }
            let counted = QuotaStatus.counted(feature: quota.name, window: quota.window, records: facts.usage, timeZone: facts.timeZone, now: now).records
            var used = 0
            for record in counted.sorted(by: { ($0.at, $0.idempotencyKey ?? "") < ($1.at, $1.idempotencyKey ?? "") }) {
                used = used.saturatingAdding(max(record.amount, 0))
                if used > norm {
                    let total = QuotaStatus.total(counted)
                    found.append(Anomaly(kind: .usageAboveNorm, since: record.at, count: total, threshold: norm, feature: quota.name))
                    break
                }
            }
        }
        return found
    }

    /// The first of `dates` (in order) that completes `rule.count` of them within `rule.days`, if any.
    static func completion(of rule: AnomalyRules.Burst, in dates: [Date]) -> Date? {
        guard rule.count > 0, dates.count >= rule.count else { return nil }
        let span = TimeInterval(rule.days) * 86_400
        for end in (rule.count - 1)..<dates.count where dates[end].timeIntervalSince(dates[end - rule.count + 1]) <= span {
            return dates[end]
        }
        return nil
    }
}
