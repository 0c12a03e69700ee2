import AppStoreModels
import EntitleCore
import Foundation

/// Writes a subscriber's projection (``SubscriberFacts``) as the ledger's `JSONEncoder` writes it, byte
/// for byte, without `Codable`'s machinery: every append rewrites it while holding SQLite's one writer,
/// where `JSONEncoder` was the largest cost after the statements. Facts with grants, overrides or Ask to
/// Buy requests, or a payload written only through `Codable`, are left to `JSONEncoder` (`nil`); the tests
/// hold every text written here to equal the encoder's.
enum StoredProjectionWriter {
    /// `facts` as stored, or `nil` when `JSONEncoder` must write them.
    static func json(_ facts: SubscriberFacts) -> String? {
        guard facts.grants.isEmpty, facts.overrides.isEmpty, facts.pendingPurchases.isEmpty else { return nil }
        var json = JSONText(capacity: 4_096)
        json.openObject()
        json.member("appTrialStartedAt", facts.appTrialStartedAt)
        json.member("appUserID", facts.appUserID)
        json.key("attributeValues")
        _ = json.object(facts.attributeValues) { json, attribute in
            json.openObject()
            json.member("at", attribute.at)
            json.member("value", attribute.value)
            json.closeObject()
            return true
        }
        json.key("grantRevocations")
        _ = json.object(facts.grantRevocations, date)
        json.key("grants")
        json.emptyArray()
        json.key("households")
        _ = json.object(facts.households) { json, membership in
            json.openObject()
            json.member("joinedAt", membership.joinedAt)
            json.member("leftAt", membership.leftAt)
            json.closeObject()
            return true
        }
        json.key("overrideRemovals")
        _ = json.object(facts.overrideRemovals, date)
        json.key("overrides")
        json.emptyArray()
        json.key("pendingPurchases")
        json.emptyObject()
        json.key("purchases")
        guard json.object(facts.purchases, purchase) else { return nil }
        json.key("timeZone")
        json.openObject()
        json.member("identifier", facts.timeZone.identifier)
        json.closeObject()
        json.key("usage")
        _ = json.array(facts.usage) { json, record in
            json.openObject()
            json.member("amount", record.amount)
            json.member("at", record.at)
            json.member("feature", record.feature)
            json.member("idempotencyKey", record.idempotencyKey)
            json.closeObject()
            return true
        }
        json.closeObject()
        return json.failed ? nil : json.text
    }

    private static func purchase(_ json: inout JSONText, _ facts: SubscriptionFacts) -> Bool {
        json.openObject()
        json.member("originalTransactionID", facts.originalTransactionID)
        json.key("refundReversals")
        _ = json.object(facts.refundReversals, date)
        if let info = facts.renewalInfo {
            json.key("renewalInfo")
            guard AppStorePayloadWriter.write(info, to: &json) else { return false }
        }
        json.key("transactions")
        guard json.object(facts.transactions, { json, transaction in AppStorePayloadWriter.write(transaction, to: &json) }) else { return false }
        json.closeObject()
        return true
    }

    private static func date(_ json: inout JSONText, _ date: Date) -> Bool {
        json.date(date)
        return true
    }
}
