import AppStoreModels
import EntitleCore
import Foundation

/// Reads the stored JSON of the events a ledger holds most of (App Store notifications, transactions,
/// renewal info, app trial starts) without `JSONDecoder`, whose `Codable` machinery costs most of what
/// reading a subscriber's history costs (analytics, rebuilds, consumers).
///
/// It reads only what the ledger's encoder writes, exactly: the keys of each type, each once, strings
/// without escapes, numbers in JSON's grammar, dates as milliseconds since 1970. On anything else (another
/// event kind, an unknown key, `null`, an escape, a nested type it doesn't read) it returns `nil` and
/// the event is decoded by `JSONDecoder`, so an event reads the same either way; the differential tests
/// and the fuzz target hold it to that.
enum StoredEventReader {
    /// The event in `json`, or `nil` when `JSONDecoder` must read it.
    static func event(_ json: String) -> LedgerEvent? {
        JSONCursor.read(json, event)
    }

    private static func event(_ cursor: inout JSONCursor) -> LedgerEvent? {
        var id: UUID?
        var appUserID: String?
        var source: LedgerEventSource?
        var idempotencyKey: String?
        var notificationUUID: String?
        var transactionID: String?
        var originalTransactionID: String?
        var signedDate: Date?
        var receivedAt: Date?
        var payload: LedgerEventPayload?
        var rawSignedPayload: String?
        let read = cursor.object { cursor, key in
            switch key {
            case "id": return set(&id, uuid(&cursor))
            case "appUserID": return set(&appUserID, cursor.string())
            case "source": return set(&source, cursor.string().flatMap(LedgerEventSource.init(rawValue:)))
            case "idempotencyKey": return set(&idempotencyKey, cursor.string())
            case "notificationUUID": return set(&notificationUUID, cursor.string())
            case "transactionID": return set(&transactionID, cursor.string())
            case "originalTransactionID": return set(&originalTransactionID, cursor.string())
            case "signedDate": return set(&signedDate, date(&cursor))
            case "receivedAt": return set(&receivedAt, date(&cursor))
            case "payload": return set(&payload, self.payload(&cursor))
            case "rawSignedPayload": return set(&rawSignedPayload, cursor.string())
            default: return false
            }
        }
        // A required key missing: `JSONDecoder` says so.
        guard read, let id, let source, let idempotencyKey, let receivedAt, let payload else { return nil }
        return LedgerEvent(
            id: id, appUserID: appUserID, source: source, idempotencyKey: idempotencyKey, notificationUUID: notificationUUID,
            transactionID: transactionID, originalTransactionID: originalTransactionID, signedDate: signedDate, receivedAt: receivedAt,
            payload: payload, rawSignedPayload: rawSignedPayload)
    }

    /// The payload's one case, as `Codable` writes an enum: `{"case": {"label": value, …}}`.
    private static func payload(_ cursor: inout JSONCursor) -> LedgerEventPayload? {
        var payload: LedgerEventPayload?
        let read = cursor.object { cursor, kind in
            guard payload == nil else { return false }
            switch kind {
            case "notification":
                var type: NotificationTypeV2?
                var subtype: Subtype?
                var transaction: JWSTransactionDecodedPayload?
                var renewalInfo: JWSRenewalInfoDecodedPayload?
                guard cursor.object({ cursor, key in
                    switch key {
                    case "type": return set(&type, enumeration(&cursor))
                    case "subtype": return set(&subtype, enumeration(&cursor))
                    case "transaction": return set(&transaction, self.transaction(&cursor))
                    case "renewalInfo": return set(&renewalInfo, self.renewalInfo(&cursor))
                    default: return false
                    }
                }) else { return false }
                payload = .notification(type: type, subtype: subtype, transaction: transaction, renewalInfo: renewalInfo)
            case "transaction":
                var transaction: JWSTransactionDecodedPayload?
                guard cursor.object({ cursor, key in
                    guard key == "_0" else { return false }
                    return set(&transaction, self.transaction(&cursor))
                }), let transaction else { return false }
                payload = .transaction(transaction)
            case "renewalInfo":
                var info: JWSRenewalInfoDecodedPayload?
                guard cursor.object({ cursor, key in
                    guard key == "_0" else { return false }
                    return set(&info, self.renewalInfo(&cursor))
                }), let info else { return false }
                payload = .renewalInfo(info)
            case "appTrialStarted":
                var at: Date?
                guard cursor.object({ cursor, key in
                    guard key == "at" else { return false }
                    return set(&at, date(&cursor))
                }), let at else { return false }
                payload = .appTrialStarted(at: at)
            default:
                return false
            }
            return true
        }
        return read ? payload : nil
    }

    /// A transaction, as its synthesized `Codable` writes it; `nil` on a key not read here.
    private static func transaction(_ cursor: inout JSONCursor) -> JWSTransactionDecodedPayload? {
        var t = JWSTransactionDecodedPayload()
        let read = cursor.object { cursor, key in
            switch key {
            case "appAccountToken": return set(&t.appAccountToken, uuid(&cursor))
            case "appTransactionId": return set(&t.appTransactionId, cursor.string())
            case "billingPlanType": return set(&t.billingPlanType, enumeration(&cursor))
            case "bundleId": return set(&t.bundleId, cursor.string())
            case "currency": return set(&t.currency, cursor.string())
            case "environment": return set(&t.environment, enumeration(&cursor))
            case "expiresDate": return set(&t.expiresDate, date(&cursor))
            case "inAppOwnershipType": return set(&t.inAppOwnershipType, enumeration(&cursor))
            case "isUpgraded": return set(&t.isUpgraded, cursor.bool())
            case "offerDiscountType": return set(&t.offerDiscountType, enumeration(&cursor))
            case "offerIdentifier": return set(&t.offerIdentifier, cursor.string())
            case "offerPeriod": return set(&t.offerPeriod, cursor.string())
            case "offerType": return set(&t.offerType, enumeration(&cursor))
            case "originalPurchaseDate": return set(&t.originalPurchaseDate, date(&cursor))
            case "originalTransactionId": return set(&t.originalTransactionId, cursor.string())
            case "price": return set(&t.price, cursor.integer(Int64.self))
            case "productId": return set(&t.productId, cursor.string())
            case "purchaseDate": return set(&t.purchaseDate, date(&cursor))
            case "quantity": return set(&t.quantity, cursor.integer(Int32.self))
            case "revocationDate": return set(&t.revocationDate, date(&cursor))
            case "revocationReason": return set(&t.revocationReason, enumeration(&cursor))
            case "revocationPercentage": return set(&t.revocationPercentage, cursor.integer(Int32.self))
            case "revocationType": return set(&t.revocationType, enumeration(&cursor))
            case "signedDate": return set(&t.signedDate, date(&cursor))
            case "storefront": return set(&t.storefront, cursor.string())
            case "storefrontId": return set(&t.storefrontId, cursor.string())
            case "subscriptionGroupIdentifier": return set(&t.subscriptionGroupIdentifier, cursor.string())
            case "transactionId": return set(&t.transactionId, cursor.string())
            case "transactionReason": return set(&t.transactionReason, enumeration(&cursor))
            case "type": return set(&t.type, enumeration(&cursor))
            case "webOrderLineItemId": return set(&t.webOrderLineItemId, cursor.string())
            default: return false
            }
        }
        return read ? t : nil
    }

    /// Renewal info, as its synthesized `Codable` writes it; `nil` on a key not read here.
    private static func renewalInfo(_ cursor: inout JSONCursor) -> JWSRenewalInfoDecodedPayload? {
        var r = JWSRenewalInfoDecodedPayload()
        let read = cursor.object { cursor, key in
            switch key {
            case "appAccountToken": return set(&r.appAccountToken, uuid(&cursor))
            case "appTransactionId": return set(&r.appTransactionId, cursor.string())
            case "renewalBillingPlanType": return set(&r.renewalBillingPlanType, enumeration(&cursor))
            case "autoRenewProductId": return set(&r.autoRenewProductId, cursor.string())
            case "autoRenewStatus": return set(&r.autoRenewStatus, enumeration(&cursor))
            case "currency": return set(&r.currency, cursor.string())
            case "eligibleWinBackOfferIds":
                guard r.eligibleWinBackOfferIds == nil else { return false }
                var ids: [String] = []
                guard cursor.array({ cursor in
                    guard let id = cursor.string() else { return false }
                    ids.append(id)
                    return true
                }) else { return false }
                r.eligibleWinBackOfferIds = ids
                return true
            case "environment": return set(&r.environment, enumeration(&cursor))
            case "expirationIntent": return set(&r.expirationIntent, enumeration(&cursor))
            case "gracePeriodExpiresDate": return set(&r.gracePeriodExpiresDate, date(&cursor))
            case "isInBillingRetryPeriod": return set(&r.isInBillingRetryPeriod, cursor.bool())
            case "offerDiscountType": return set(&r.offerDiscountType, enumeration(&cursor))
            case "offerIdentifier": return set(&r.offerIdentifier, cursor.string())
            case "offerPeriod": return set(&r.offerPeriod, cursor.string())
            case "offerType": return set(&r.offerType, enumeration(&cursor))
            case "originalTransactionId": return set(&r.originalTransactionId, cursor.string())
            case "priceIncreaseStatus": return set(&r.priceIncreaseStatus, enumeration(&cursor))
            case "productId": return set(&r.productId, cursor.string())
            case "recentSubscriptionStartDate": return set(&r.recentSubscriptionStartDate, date(&cursor))
            case "renewalDate": return set(&r.renewalDate, date(&cursor))
            case "renewalPrice": return set(&r.renewalPrice, cursor.integer(Int64.self))
            case "signedDate": return set(&r.signedDate, date(&cursor))
            default: return false
            }
        }
        return read ? r : nil
    }

    /// Stores `value` in `field`; `false` when there was none to store, or the field was set already
    /// (its key came twice).
    private static func set<T>(_ field: inout T?, _ value: T?) -> Bool {
        guard field == nil, let value else { return false }
        field = value
        return true
    }

    /// A date as `JSONDecoder` reads `.millisecondsSince1970`.
    private static func date(_ cursor: inout JSONCursor) -> Date? {
        cursor.double().map { Date(timeIntervalSince1970: $0 / 1000.0) }
    }

    private static func uuid(_ cursor: inout JSONCursor) -> UUID? {
        cursor.string().flatMap(UUID.init(uuidString:))
    }

    /// One of Apple's enumerations, whose raw value is a string or a 32-bit integer.
    private static func enumeration<E: AppStoreEnumeration>(_ cursor: inout JSONCursor) -> E? {
        if E.RawValue.self == String.self {
            return cursor.string().flatMap { $0 as? E.RawValue }.map(E.init(rawValue:))
        }
        if E.RawValue.self == Int32.self {
            return cursor.integer(Int32.self).flatMap { $0 as? E.RawValue }.map(E.init(rawValue:))
        }
        return nil
    }
}
