import AppStoreModels
import EntitleCore
import EntitleWire
import FastJSON
import Foundation

/// Writes `GET /v1/subscribers/{id}`'s answer as ``WireJSON/encoder`` writes it, byte for byte (sorted
/// keys, ISO 8601 dates, `nil` members left out), without `Codable`'s machinery: the encoder was the
/// largest part of a read after HTTP itself. An answer with access periods (`?access=periods`) or
/// anomalies (rare), or a
/// date the writer doesn't spell as the encoder does (before 1583, after 9999) is left to the encoder
/// (`nil`); the tests hold every text written here to equal the encoder's. Arrays and dictionaries are
/// written with plain loops, not ``JSONText``'s generic helpers, which aren't specialized across modules.
enum SubscriberResponseWriter {
    /// `response` as the API sends it, or `nil` when ``WireJSON/encoder`` must write it.
    static func json(_ response: SubscriberResponse) -> String? {
        guard response.accessPeriods.isEmpty, response.anomalies.isEmpty else { return nil }
        var json = JSONText(capacity: 2_048)
        json.openObject()
        json.key("accessPeriods")
        json.emptyArray()
        json.key("anomalies")
        json.emptyArray()
        json.member("appAccountToken", response.appAccountToken)
        json.key("appTrial")
        json.openObject()
        json.member("daysLeft", response.appTrial.daysLeft)
        guard json.member("endsAt", iso8601: response.appTrial.endsAt), json.member("lockoutAt", iso8601: response.appTrial.lockoutAt) else { return nil }
        json.member("phase", response.appTrial.phase.rawValue)
        guard json.member("startedAt", iso8601: response.appTrial.startedAt) else { return nil }
        json.closeObject()
        json.member("appUserID", response.appUserID)
        json.key("attributes")
        json.openObject()
        for (key, value) in sorted(response.attributes) {
            json.key(key)
            json.string(value)
        }
        json.closeObject()
        guard json.member("consentRescindedAt", iso8601: response.consentRescindedAt) else { return nil }
        json.key("entitlements")
        json.openArray()
        for entitlement in response.entitlements {
            json.element()
            guard write(entitlement, to: &json) else { return nil }
        }
        json.closeArray()
        if let grace = response.expiryGrace {
            json.key("expiryGrace")
            json.openObject()
            json.member("daysLeft", grace.daysLeft)
            guard json.member("lockoutAt", iso8601: grace.lockoutAt), json.member("startedAt", iso8601: grace.startedAt) else { return nil }
            json.closeObject()
        }
        json.key("items")
        json.openArray()
        for item in response.items {
            json.element()
            json.openObject()
            guard json.member("addedAt", iso8601: item.addedAt) else { return nil }
            json.member("id", item.id)
            json.member("isPaused", item.isPaused)
            json.member("limit", item.limit)
            json.member("name", item.name)
            json.closeObject()
        }
        json.closeArray()
        if let lapse = response.lapse {
            json.key("lapse")
            json.openObject()
            json.member("paywall", lapse.paywall.rawValue)
            json.member("reason", lapse.reason.rawValue)
            json.closeObject()
        }
        guard json.member("lastVerifiedAt", iso8601: response.lastVerifiedAt) else { return nil }
        json.key("pendingPurchases")
        json.openArray()
        for pending in response.pendingPurchases {
            json.element()
            json.openObject()
            guard json.member("expiresAt", iso8601: pending.expiresAt) else { return nil }
            json.member("productID", pending.productID)
            guard json.member("requestedAt", iso8601: pending.requestedAt) else { return nil }
            json.closeObject()
        }
        json.closeArray()
        if let grant = response.provisionalGrant {
            json.key("provisionalGrant")
            json.openObject()
            if let levels = grant.access {
                json.key("access")
                json.openObject()
                for (product, level) in sorted(levels) {
                    json.key(product)
                    write(level, to: &json)
                }
                json.closeObject()
            }
            json.key("entitlements")
            json.openObject()
            for (product, ids) in sorted(grant.entitlements) {
                json.key(product)
                json.openArray()
                for id in ids {
                    json.element()
                    json.string(id)
                }
                json.closeArray()
            }
            json.closeObject()
            json.member("hours", grant.hours)
            json.closeObject()
        }
        json.key("purchases")
        guard write(response.purchases, to: &json) else { return nil }
        json.key("quotas")
        json.openArray()
        for quota in response.quotas {
            json.element()
            json.openObject()
            json.member("feature", quota.feature)
            json.member("limit", quota.limit)
            json.member("remaining", quota.remaining)
            guard json.member("resetsAt", iso8601: quota.resetsAt) else { return nil }
            json.member("used", quota.used)
            json.member("window", quota.window)
            json.closeObject()
        }
        json.closeArray()
        json.key("reminders")
        json.openArray()
        for reminder in response.reminders {
            json.element()
            json.openObject()
            json.member("daysLeft", reminder.daysLeft)
            guard json.member("dueAt", iso8601: reminder.dueAt), json.member("endsAt", iso8601: reminder.endsAt) else { return nil }
            json.member("kind", reminder.kind)
            json.member("originalTransactionID", reminder.originalTransactionID)
            json.member("productID", reminder.productID)
            json.member("willRenew", reminder.willRenew)
            json.closeObject()
        }
        json.closeArray()
        guard json.member("serverTime", iso8601: response.serverTime) else { return nil }
        json.key("subscriptions")
        guard write(response.subscriptions, to: &json) else { return nil }
        json.closeObject()
        return json.failed ? nil : json.text
    }

    /// An access level as `AccessLevel.encode(to:)` writes it: features sorted, then limits and quotas.
    private static func write(_ level: AccessLevel, to json: inout JSONText) {
        json.openObject()
        json.key("features")
        json.openArray()
        for feature in level.features.sorted() {
            json.element()
            json.string(feature)
        }
        json.closeArray()
        for (name, allowances) in [("limits", level.limits), ("quotas", level.quotas)] {
            json.key(name)
            json.openObject()
            for (key, allowance) in sorted(allowances) {
                json.key(key)
                switch allowance {
                case .limited(let maximum): json.integer(maximum)
                case .unlimited: json.string("unlimited")
                }
            }
            json.closeObject()
        }
        json.closeObject()
    }

    /// A dictionary's entries in `JSONEncoder`'s order: by their keys' UTF-8 bytes.
    private static func sorted<Value>(_ entries: [String: Value]) -> [(key: String, value: Value)] {
        entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }

    private static func write(_ entitlement: EntitlementInfo, to json: inout JSONText) -> Bool {
        json.openObject()
        guard json.member("expiresAt", iso8601: entitlement.expiresAt) else { return false }
        json.member("id", entitlement.id)
        json.member("isActive", entitlement.isActive)
        json.member("isFamilyShared", entitlement.isFamilyShared)
        json.key("limits")
        json.openObject()
        for (key, limit) in sorted(entitlement.limits) {
            json.key(key)
            if let limit { json.integer(limit) } else { json.null() }
        }
        json.closeObject()
        json.member("periodType", entitlement.periodType)
        json.member("productID", entitlement.productID)
        json.member("renewsToProductID", entitlement.renewsToProductID)
        json.member("source", entitlement.source.rawValue)
        json.member("state", entitlement.state.rawValue)
        json.member("willRenew", entitlement.willRenew)
        json.closeObject()
        return true
    }

    private static func write(_ subscriptions: [SubscriptionInfo], to json: inout JSONText) -> Bool {
        json.openArray()
        for subscription in subscriptions {
            json.element()
            json.openObject()
            json.member("appleStatus", subscription.appleStatus)
            if let commitment = subscription.commitment {
                json.key("commitment")
                json.openObject()
                json.member("billingPeriod", commitment.billingPeriod)
                guard json.member("endsAt", iso8601: commitment.endsAt) else { return false }
                json.member("price", commitment.price)
                json.member("renews", commitment.renews)
                json.member("totalBillingPeriods", commitment.totalBillingPeriods)
                json.closeObject()
            }
            json.member("daysLeft", subscription.daysLeft)
            json.member("environment", subscription.environment)
            json.member("expirationReason", subscription.expirationReason)
            guard json.member("expiresAt", iso8601: subscription.expiresAt),
                json.member("gracePeriodExpiresAt", iso8601: subscription.gracePeriodExpiresAt)
            else { return false }
            json.member("isFamilyShared", subscription.isFamilyShared)
            json.member("kind", subscription.kind.rawValue)
            json.member("latestTransactionID", subscription.latestTransactionID)
            json.member("originalTransactionID", subscription.originalTransactionID)
            json.member("periodType", subscription.periodType)
            json.member("productID", subscription.productID)
            guard json.member("purchasedAt", iso8601: subscription.purchasedAt) else { return false }
            json.member("redundant", subscription.redundant)
            json.member("renewalChange", subscription.renewalChange)
            if let offer = subscription.renewalOffer {
                json.key("renewalOffer")
                json.openObject()
                json.member("offerID", offer.offerID)
                json.member("periodType", offer.periodType)
                json.closeObject()
            }
            json.member("renewsToProductID", subscription.renewsToProductID)
            json.member("revocationCause", subscription.revocationCause)
            json.member("state", subscription.state.rawValue)
            json.member("willRenew", subscription.willRenew)
            json.closeObject()
        }
        json.closeArray()
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
        var text = CivilDays.isoDate(ofDay: day)
        func append(_ separator: Unicode.Scalar, _ part: Int) {
            text.unicodeScalars.append(separator)
            text.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(part / 10)))
            text.unicodeScalars.append(Unicode.Scalar(UInt8(ascii: "0") + UInt8(part % 10)))
        }
        append("T", time / 3_600)
        append(":", time / 60 % 60)
        append(":", time % 60)
        text += "Z"
        member(key, text)
        return true
    }
}
