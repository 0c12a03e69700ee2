import EntitleWire
import Foundation

/// The customer list as CSV (RFC 4180): one row per customer, purchases joined in their columns.
enum CustomerCSV {
    static let header = "app_user_id,first_seen_at,active_entitlements,products,states,storefronts,in_trial,in_grace,refunded,last_verified_at,anomalies\r\n"

    static func row(_ summary: SubscriberSummary) -> String {
        let products: String = summary.purchases.map(\.productID).joined(separator: " ")
        let states: String = summary.purchases.map(\.state).joined(separator: " ")
        let storefronts: String = Set(summary.purchases.compactMap(\.storefront)).sorted().joined(separator: " ")
        var fields: [String] = [summary.appUserID, summary.firstSeenAt.map(instant) ?? "", summary.activeEntitlements.joined(separator: " ")]
        fields += [products, states, storefronts, String(summary.inTrial), String(summary.inGrace), String(summary.refunded)]
        fields.append(summary.lastVerifiedAt.map(instant) ?? "")
        fields.append(summary.anomalies.joined(separator: " "))
        return fields.map(escape).joined(separator: ",") + "\r\n"
    }

    static func instant(_ date: Date) -> String { date.formatted(.iso8601) }

    /// Quoted as the analytics exports quote, a leading formula character neutralised.
    static func escape(_ field: String) -> String { AnalyticsCSV.field(field) }
}
