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
            case "id": return JSONCursor.set(&id, uuid(&cursor))
            case "appUserID": return JSONCursor.set(&appUserID, cursor.string())
            case "source": return JSONCursor.set(&source, cursor.string().flatMap(LedgerEventSource.init(rawValue:)))
            case "idempotencyKey": return JSONCursor.set(&idempotencyKey, cursor.string())
            case "notificationUUID": return JSONCursor.set(&notificationUUID, cursor.string())
            case "transactionID": return JSONCursor.set(&transactionID, cursor.string())
            case "originalTransactionID": return JSONCursor.set(&originalTransactionID, cursor.string())
            case "signedDate": return JSONCursor.set(&signedDate, date(&cursor))
            case "receivedAt": return JSONCursor.set(&receivedAt, date(&cursor))
            case "payload": return JSONCursor.set(&payload, self.payload(&cursor))
            case "rawSignedPayload": return JSONCursor.set(&rawSignedPayload, cursor.string())
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
                    case "type": return JSONCursor.set(&type, enumeration(&cursor))
                    case "subtype": return JSONCursor.set(&subtype, enumeration(&cursor))
                    case "transaction": return JSONCursor.set(&transaction, self.transaction(&cursor))
                    case "renewalInfo": return JSONCursor.set(&renewalInfo, self.renewalInfo(&cursor))
                    default: return false
                    }
                }) else { return false }
                payload = .notification(type: type, subtype: subtype, transaction: transaction, renewalInfo: renewalInfo)
            case "transaction":
                var transaction: JWSTransactionDecodedPayload?
                guard cursor.object({ cursor, key in
                    guard key == "_0" else { return false }
                    return JSONCursor.set(&transaction, self.transaction(&cursor))
                }), let transaction else { return false }
                payload = .transaction(transaction)
            case "renewalInfo":
                var info: JWSRenewalInfoDecodedPayload?
                guard cursor.object({ cursor, key in
                    guard key == "_0" else { return false }
                    return JSONCursor.set(&info, self.renewalInfo(&cursor))
                }), let info else { return false }
                payload = .renewalInfo(info)
            case "appTrialStarted":
                var at: Date?
                guard cursor.object({ cursor, key in
                    guard key == "at" else { return false }
                    return JSONCursor.set(&at, date(&cursor))
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
            case "appAccountToken": return JSONCursor.set(&t.appAccountToken, uuid(&cursor))
            case "appTransactionId": return JSONCursor.set(&t.appTransactionId, cursor.string())
            case "billingPlanType": return JSONCursor.set(&t.billingPlanType, enumeration(&cursor))
            case "bundleId": return JSONCursor.set(&t.bundleId, cursor.string())
            case "currency": return JSONCursor.set(&t.currency, cursor.string())
            case "environment": return JSONCursor.set(&t.environment, enumeration(&cursor))
            case "expiresDate": return JSONCursor.set(&t.expiresDate, date(&cursor))
            case "inAppOwnershipType": return JSONCursor.set(&t.inAppOwnershipType, enumeration(&cursor))
            case "isUpgraded": return JSONCursor.set(&t.isUpgraded, cursor.bool())
            case "offerDiscountType": return JSONCursor.set(&t.offerDiscountType, enumeration(&cursor))
            case "offerIdentifier": return JSONCursor.set(&t.offerIdentifier, cursor.string())
            case "offerPeriod": return JSONCursor.set(&t.offerPeriod, cursor.string())
            case "offerType": return JSONCursor.set(&t.offerType, enumeration(&cursor))
            case "originalPurchaseDate": return JSONCursor.set(&t.originalPurchaseDate, date(&cursor))
            case "originalTransactionId": return JSONCursor.set(&t.originalTransactionId, cursor.string())
            case "price": return JSONCursor.set(&t.price, cursor.integer(Int64.self))
            case "productId": return JSONCursor.set(&t.productId, cursor.string())
            case "purchaseDate": return JSONCursor.set(&t.purchaseDate, date(&cursor))
            case "quantity": return JSONCursor.set(&t.quantity, cursor.integer(Int32.self))
            case "revocationDate": return JSONCursor.set(&t.revocationDate, date(&cursor))
            case "revocationReason": return JSONCursor.set(&t.revocationReason, enumeration(&cursor))
            case "revocationPercentage": return JSONCursor.set(&t.revocationPercentage, cursor.integer(Int32.self))
            case "revocationType": return JSONCursor.set(&t.revocationType, enumeration(&cursor))
            case "signedDate": return JSONCursor.set(&t.signedDate, date(&cursor))
            case "storefront": return JSONCursor.set(&t.storefront, cursor.string())
            case "storefrontId": return JSONCursor.set(&t.storefrontId, cursor.string())
            case "subscriptionGroupIdentifier": return JSONCursor.set(&t.subscriptionGroupIdentifier, cursor.string())
            case "transactionId": return JSONCursor.set(&t.transactionId, cursor.string())
            case "transactionReason": return JSONCursor.set(&t.transactionReason, enumeration(&cursor))
            case "type": return JSONCursor.set(&t.type, enumeration(&cursor))
            case "webOrderLineItemId": return JSONCursor.set(&t.webOrderLineItemId, cursor.string())
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
            case "appAccountToken": return JSONCursor.set(&r.appAccountToken, uuid(&cursor))
            case "appTransactionId": return JSONCursor.set(&r.appTransactionId, cursor.string())
            case "renewalBillingPlanType": return JSONCursor.set(&r.renewalBillingPlanType, enumeration(&cursor))
            case "autoRenewProductId": return JSONCursor.set(&r.autoRenewProductId, cursor.string())
            case "autoRenewStatus": return JSONCursor.set(&r.autoRenewStatus, enumeration(&cursor))
            case "currency": return JSONCursor.set(&r.currency, cursor.string())
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
            case "environment": return JSONCursor.set(&r.environment, enumeration(&cursor))
            case "expirationIntent": return JSONCursor.set(&r.expirationIntent, enumeration(&cursor))
            case "gracePeriodExpiresDate": return JSONCursor.set(&r.gracePeriodExpiresDate, date(&cursor))
            case "isInBillingRetryPeriod": return JSONCursor.set(&r.isInBillingRetryPeriod, cursor.bool())
            case "offerDiscountType": return JSONCursor.set(&r.offerDiscountType, enumeration(&cursor))
            case "offerIdentifier": return JSONCursor.set(&r.offerIdentifier, cursor.string())
            case "offerPeriod": return JSONCursor.set(&r.offerPeriod, cursor.string())
            case "offerType": return JSONCursor.set(&r.offerType, enumeration(&cursor))
            case "originalTransactionId": return JSONCursor.set(&r.originalTransactionId, cursor.string())
            case "priceIncreaseStatus": return JSONCursor.set(&r.priceIncreaseStatus, enumeration(&cursor))
            case "productId": return JSONCursor.set(&r.productId, cursor.string())
            case "recentSubscriptionStartDate": return JSONCursor.set(&r.recentSubscriptionStartDate, date(&cursor))
            case "renewalDate": return JSONCursor.set(&r.renewalDate, date(&cursor))
            case "renewalPrice": return JSONCursor.set(&r.renewalPrice, cursor.integer(Int64.self))
            case "signedDate": return JSONCursor.set(&r.signedDate, date(&cursor))
            default: return false
            }
        }
        return read ? r : nil
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
