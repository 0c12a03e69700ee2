import AppStoreModels
import EntitleCore
import FastJSON
import Foundation

/// Writes a subscriber's projection (``SubscriberFacts``) as the ledger's `JSONEncoder` writes it, byte
/// for byte, without `Codable`'s machinery: every append rewrites it while holding SQLite's one writer,
/// where `JSONEncoder` was the largest cost after the statements. Facts with grants, overrides, purchase claims, Ask to
/// Buy requests, app trial extensions or experiment enrolments, or a payload written only through `Codable`, are left to `JSONEncoder` (`nil`); the tests
/// hold every text written here to equal the encoder's.
enum StoredProjectionWriter {
    /// `facts` as stored, or `nil` when `JSONEncoder` must write them.
    static func json(_ facts: SubscriberFacts) -> String? {
        guard facts.grants.isEmpty, facts.overrides.isEmpty, facts.pendingPurchases.isEmpty, facts.appTrialExtensions.isEmpty, facts.purchaseClaims.isEmpty,
            facts.erasedAt == nil
        else { return nil }
        var json = JSONText(capacity: 4_096)
        json.openObject()
        json.key("appTrialExtensions")
        json.emptyObject()
        json.member("appTrialStartedAt", facts.appTrialStartedAt)
        json.member("appUserID", facts.appUserID.rawValue)
        json.key("attributeValues")
        json.openObject()
        for (key, attribute) in ordered(facts.attributeValues) {
            json.key(key)
            json.openObject()
            json.member("at", attribute.at)
            json.member("value", attribute.value)
            json.closeObject()
        }
        json.closeObject()
        json.member("consentRescindedAt", facts.consentRescindedAt)
        // Enrolments are left to the encoder: few subscribers have any.
        guard facts.experiments.isEmpty else { return nil }
        json.key("experiments")
        json.emptyObject()
        json.key("grantRevocations")
        write(facts.grantRevocations, to: &json)
        json.key("grants")
        json.emptyArray()
        json.key("households")
        json.openObject()
        for (key, membership) in ordered(facts.households.map { ($0.key.rawValue, $0.value) }) {
            json.key(key)
            json.openObject()
            json.member("joinedAt", membership.joinedAt)
            json.member("leftAt", membership.leftAt)
            json.closeObject()
        }
        json.closeObject()
        json.key("items")
        json.openObject()
        for (limit, registry) in ordered(facts.items) {
            json.key(limit)
            json.openObject()
            for (id, item) in ordered(registry) {
                json.key(id)
                json.openObject()
                json.member("id", item.id)
                json.member("limit", item.limit)
                json.member("name", item.name)
                json.member("namedAt", item.namedAt)
                json.key("registrations")
                json.openArray()
                for registered in item.registrations {
                    json.element()
                    json.date(registered)
                }
                json.closeArray()
                json.member("removedAt", item.removedAt)
                json.closeObject()
            }
            json.closeObject()
        }
        json.closeObject()
        json.key("overrideRemovals")
        write(facts.overrideRemovals, to: &json)
        json.key("overrides")
        json.emptyArray()
        json.key("pendingPurchases")
        json.emptyObject()
        json.key("purchaseClaims")
        json.emptyObject()
        json.key("purchases")
        json.openObject()
        for (key, purchase) in ordered(facts.purchases.map { ($0.key.rawValue, $0.value) }) {
            json.key(key)
            guard write(purchase, to: &json) else { return nil }
        }
        json.closeObject()
        json.key("timeZone")
        json.openObject()
        json.member("identifier", facts.timeZone.identifier)
        json.closeObject()
        json.key("usage")
        json.openArray()
        for record in facts.usage {
            json.element()
            json.openObject()
            json.member("amount", record.amount)
            json.member("at", record.at)
            json.member("feature", record.feature)
            json.member("idempotencyKey", record.idempotencyKey)
            json.closeObject()
        }
        json.closeArray()
        json.closeObject()
        return json.failed ? nil : json.text
    }

    private static func write(_ facts: SubscriptionFacts, to json: inout JSONText) -> Bool {
        json.openObject()
        if let claims = facts.claims {
            json.key("claims")
            write(claims, to: &json)
        }
        json.member("introductoryOfferAt", facts.introductoryOfferAt)
        json.member("originalTransactionID", facts.originalTransactionID.rawValue)
        json.key("refundReversals")
        write(facts.refundReversals, to: &json)
        if let info = facts.renewalInfo {
            json.key("renewalInfo")
            guard AppStorePayloadWriter.write(info, to: &json) else { return false }
        }
        json.key("transactions")
        json.openObject()
        for (key, transaction) in ordered(facts.transactions) {
            json.key(key)
            guard AppStorePayloadWriter.write(transaction, to: &json) else { return false }
        }
        json.closeObject()
        json.closeObject()
        return true
    }

    /// An object of dates.
    private static func write(_ dates: [String: Date], to json: inout JSONText) {
        json.openObject()
        for (key, date) in ordered(dates) {
            json.key(key)
            json.date(date)
        }
        json.closeObject()
    }

    /// A dictionary's entries in `JSONEncoder`'s order (by their keys' UTF-8 bytes). Written with plain
    /// loops rather than `JSONText`'s generic helpers, which are not specialized across modules (their
    /// metadata lookups at run time were a few percent of ingestion, under the writer).
    private static func ordered<Value, Entries: Sequence<(key: String, value: Value)>>(_ entries: Entries) -> [(key: String, value: Value)] {
        entries.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
    }
}
