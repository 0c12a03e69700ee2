import AppStoreModels
import EntitleAnalytics
import EntitleWire
import Foundation

/// Writes `GET /v1/subscribers/{id}`'s answer as ``WireJSON/encoder`` writes it, byte for byte (sorted
/// keys, ISO 8601 dates, `nil` members left out), without `Codable`'s machinery: the encoder was the
/// largest part of a read after HTTP itself. An answer with access periods (`?access=periods`) or a
/// date the writer doesn't spell as the encoder does (before 1583, after 9999) is left to the encoder
/// (`nil`); the tests hold every text written here to equal the encoder's.
enum SubscriberResponseWriter {
    /// `response` as the API sends it, or `nil` when ``WireJSON/encoder`` must write it.
    static func json(_ response: SubscriberResponse) -> String? {
        guard response.accessPeriods.isEmpty else { return nil }
        var json = JSONText(capacity: 2_048)
        var valid = true
        json.openObject()
        json.key("accessPeriods")
        json.emptyArray()
        json.member("appAccountToken", response.appAccountToken)
        json.key("appTrial")
        json.openObject()
        valid = valid && json.member("endsAt", iso8601: response.appTrial.endsAt)
        valid = valid && json.member("lockoutAt", iso8601: response.appTrial.lockoutAt)
        json.member("phase", response.appTrial.phase.rawValue)
        valid = valid && json.member("startedAt", iso8601: response.appTrial.startedAt)
        json.closeObject()
        json.member("appUserID", response.appUserID)
        json.key("attributes")
        _ = json.object(response.attributes) { json, value in
            json.string(value)
            return true
        }
        json.key("entitlements")
        valid = valid && json.array(response.entitlements, entitlement)
        if let lapse = response.lapse {
            json.key("lapse")
            json.openObject()
            json.member("paywall", lapse.paywall.rawValue)
            json.member("reason", lapse.reason.rawValue)
            json.closeObject()
        }
        json.key("pendingPurchases")
        valid = valid && json.array(response.pendingPurchases) { json, pending in
            json.openObject()
            defer { json.closeObject() }
            guard json.member("expiresAt", iso8601: pending.expiresAt) else { return false }
            json.member("productID", pending.productID)
            return json.member("requestedAt", iso8601: pending.requestedAt)
        }
        json.key("purchases")
        valid = valid && json.array(response.purchases, subscription)
        json.key("quotas")
        valid = valid && json.array(response.quotas) { json, quota in
            json.openObject()
            defer { json.closeObject() }
            json.member("feature", quota.feature)
            json.member("limit", quota.limit)
            json.member("remaining", quota.remaining)
            guard json.member("resetsAt", iso8601: quota.resetsAt) else { return false }
            json.member("used", quota.used)
            json.member("window", quota.window)
            return true
        }
        valid = valid && json.member("serverTime", iso8601: response.serverTime)
        json.key("subscriptions")
        valid = valid && json.array(response.subscriptions, subscription)
        json.closeObject()
        return valid && !json.failed ? json.text : nil
    }

    private static func entitlement(_ json: inout JSONText, _ entitlement: EntitlementInfo) -> Bool {
        json.openObject()
        defer { json.closeObject() }
        guard json.member("expiresAt", iso8601: entitlement.expiresAt) else { return false }
        json.member("id", entitlement.id)
        json.member("isActive", entitlement.isActive)
        json.member("isFamilyShared", entitlement.isFamilyShared)
        json.key("limits")
        _ = json.object(entitlement.limits) { json, limit in
            json.value(limit)
            return true
        }
        json.member("periodType", entitlement.periodType)
        json.member("productID", entitlement.productID)
        json.member("renewsToProductID", entitlement.renewsToProductID)
        json.member("source", entitlement.source.rawValue)
        json.member("state", entitlement.state.rawValue)
        json.member("willRenew", entitlement.willRenew)
        return true
    }

    private static func subscription(_ json: inout JSONText, _ subscription: SubscriptionInfo) -> Bool {
        json.openObject()
        defer { json.closeObject() }
        json.member("appleStatus", subscription.appleStatus)
        json.member("environment", subscription.environment)
        json.member("expirationReason", subscription.expirationReason)
        guard json.member("expiresAt", iso8601: subscription.expiresAt),
            json.member("gracePeriodExpiresAt", iso8601: subscription.gracePeriodExpiresAt)
        else { return false }
        json.member("isFamilyShared", subscription.isFamilyShared)
        json.member("kind", subscription.kind)
        json.member("originalTransactionID", subscription.originalTransactionID)
        json.member("periodType", subscription.periodType)
        json.member("productID", subscription.productID)
        guard json.member("purchasedAt", iso8601: subscription.purchasedAt) else { return false }
        json.member("renewalChange", subscription.renewalChange)
        json.member("renewsToProductID", subscription.renewsToProductID)
        json.member("revocationCause", subscription.revocationCause)
        json.member("state", subscription.state.rawValue)
        json.member("willRenew", subscription.willRenew)
        return true
    }
}

extension JSONText {
    /// The member `key` with `date` as `JSONEncoder`'s `.iso8601` strategy writes it (whole seconds,
    /// rounded down, UTC); nothing when `date` is `nil`. `false` for an instant it doesn't spell the same
    /// way (before 1583, when Foundation's calendar is Julian, or after 9999).
    fileprivate mutating func member(_ key: StaticString, iso8601 date: Date?) -> Bool {
        guard let date else { return true }
        let seconds = date.timeIntervalSince1970.rounded(.down)
        // 1583-01-01T00:00:00Z ..< 10000-01-01T00:00:00Z
        guard seconds >= -12_212_553_600, seconds < 253_402_300_800 else { return false }
        let whole = Int(seconds)
        let day = whole >= 0 ? whole / 86_400 : (whole - 86_399) / 86_400
        let time = whole - day * 86_400
        var text = AnalyticsCalendar.isoDate(ofDay: day)
        text += "T"
        for (index, part) in [time / 3_600, time / 60 % 60, time % 60].enumerated() {
            if index > 0 { text += ":" }
            if part < 10 { text += "0" }
            text += String(part)
        }
        text += "Z"
        member(key, text)
        return true
    }

    /// An optional integer as `JSONEncoder` writes a dictionary's optional value: `null` when `nil`.
    fileprivate mutating func value(_ value: Int?) {
        if let value { integer(value) } else { null() }
    }
}
