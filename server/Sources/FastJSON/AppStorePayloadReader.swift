import AppStoreModels
import Foundation

/// Reads the payloads Apple signs most often (notifications with `data`, transactions, renewal info)
/// without `JSONDecoder`, whose `Codable` machinery costs more than everything else in a verification
/// but the signatures.
///
/// It reads a strict subset of JSON (``JSONCursor``): each key of the type once, strings without
/// escapes, numbers in JSON's grammar, dates as milliseconds since 1970; a key the type doesn't have is
/// stepped over, as `JSONDecoder` does. On anything else (`null`, an escape, a key twice, a nested type
/// it doesn't read, such as `summary` or `commitmentInfo`) it returns `nil` and the caller decodes with
/// `JSONDecoder`, so a payload reads the same either way; the differential tests and a fuzz target hold
/// it to that. ``AppStoreJSON/decode(_:from:)`` does both.
public enum AppStorePayloadReader {
    /// `bytes` read as `type`, for the types read here; `nil` when `JSONDecoder` must read it.
    public static func read<T>(_ type: T.Type, from bytes: UnsafeBufferPointer<UInt8>) -> T? {
        if type == JWSTransactionDecodedPayload.self { return JSONCursor.read(bytes, transaction) as? T }
        if type == JWSRenewalInfoDecodedPayload.self { return JSONCursor.read(bytes, renewalInfo) as? T }
        if type == ResponseBodyV2DecodedPayload.self { return JSONCursor.read(bytes, notification) as? T }
        return nil
    }

    /// A notification whose content is `data`.
    @inlinable package static func notification(_ cursor: inout JSONCursor) -> ResponseBodyV2DecodedPayload? {
        var n = ResponseBodyV2DecodedPayload()
        let read = cursor.object { cursor, key in
            switch key {
            case "notificationType": return JSONCursor.set(&n.notificationType, cursor.enumeration())
            case "subtype": return JSONCursor.set(&n.subtype, cursor.enumeration())
            case "notificationUUID": return JSONCursor.set(&n.notificationUUID, cursor.string())
            case "data": return JSONCursor.set(&n.data, notificationData(&cursor))
            case "version": return JSONCursor.set(&n.version, cursor.string())
            case "signedDate": return JSONCursor.set(&n.signedDate, cursor.date())
            default: return skip(key, unless: Keys.notification, &cursor)
            }
        }
        return read ? n : nil
    }

    @inlinable package static func notificationData(_ cursor: inout JSONCursor) -> NotificationData? {
        var d = NotificationData()
        let read = cursor.object { cursor, key in
            switch key {
            case "environment": return JSONCursor.set(&d.environment, cursor.enumeration())
            case "appAppleId": return JSONCursor.set(&d.appAppleId, cursor.integer(Int64.self))
            case "bundleId": return JSONCursor.set(&d.bundleId, cursor.string())
            case "bundleVersion": return JSONCursor.set(&d.bundleVersion, cursor.string())
            case "signedTransactionInfo": return JSONCursor.set(&d.signedTransactionInfo, cursor.string())
            case "signedRenewalInfo": return JSONCursor.set(&d.signedRenewalInfo, cursor.string())
            case "status": return JSONCursor.set(&d.status, cursor.enumeration())
            case "consumptionRequestReason": return JSONCursor.set(&d.consumptionRequestReason, cursor.enumeration())
            default: return skip(key, unless: Keys.notificationData, &cursor)
            }
        }
        return read ? d : nil
    }

    @inlinable package static func transaction(_ cursor: inout JSONCursor) -> JWSTransactionDecodedPayload? {
        var t = JWSTransactionDecodedPayload()
        let read = cursor.object { cursor, key in
            switch key {
            case "appAccountToken": return JSONCursor.set(&t.appAccountToken, cursor.uuid())
            case "appTransactionId": return JSONCursor.set(&t.appTransactionId, cursor.string())
            case "billingPlanType": return JSONCursor.set(&t.billingPlanType, cursor.enumeration())
            case "bundleId": return JSONCursor.set(&t.bundleId, cursor.string())
            case "currency": return JSONCursor.set(&t.currency, cursor.string())
            case "environment": return JSONCursor.set(&t.environment, cursor.enumeration())
            case "expiresDate": return JSONCursor.set(&t.expiresDate, cursor.date())
            case "inAppOwnershipType": return JSONCursor.set(&t.inAppOwnershipType, cursor.enumeration())
            case "isUpgraded": return JSONCursor.set(&t.isUpgraded, cursor.bool())
            case "offerDiscountType": return JSONCursor.set(&t.offerDiscountType, cursor.enumeration())
            case "offerIdentifier": return JSONCursor.set(&t.offerIdentifier, cursor.string())
            case "offerPeriod": return JSONCursor.set(&t.offerPeriod, cursor.string())
            case "offerType": return JSONCursor.set(&t.offerType, cursor.enumeration())
            case "originalPurchaseDate": return JSONCursor.set(&t.originalPurchaseDate, cursor.date())
            case "originalTransactionId": return JSONCursor.set(&t.originalTransactionId, cursor.string())
            case "price": return JSONCursor.set(&t.price, cursor.integer(Int64.self))
            case "productId": return JSONCursor.set(&t.productId, cursor.string())
            case "purchaseDate": return JSONCursor.set(&t.purchaseDate, cursor.date())
            case "quantity": return JSONCursor.set(&t.quantity, cursor.integer(Int32.self))
            case "revocationDate": return JSONCursor.set(&t.revocationDate, cursor.date())
            case "revocationReason": return JSONCursor.set(&t.revocationReason, cursor.enumeration())
            case "revocationPercentage": return JSONCursor.set(&t.revocationPercentage, cursor.integer(Int32.self))
            case "revocationType": return JSONCursor.set(&t.revocationType, cursor.enumeration())
            case "signedDate": return JSONCursor.set(&t.signedDate, cursor.date())
            case "storefront": return JSONCursor.set(&t.storefront, cursor.string())
            case "storefrontId": return JSONCursor.set(&t.storefrontId, cursor.string())
            case "subscriptionGroupIdentifier": return JSONCursor.set(&t.subscriptionGroupIdentifier, cursor.string())
            case "transactionId": return JSONCursor.set(&t.transactionId, cursor.string())
            case "transactionReason": return JSONCursor.set(&t.transactionReason, cursor.enumeration())
            case "type": return JSONCursor.set(&t.type, cursor.enumeration())
            case "webOrderLineItemId": return JSONCursor.set(&t.webOrderLineItemId, cursor.string())
            default: return skip(key, unless: Keys.transaction, &cursor)
            }
        }
        return read ? t : nil
    }

    @inlinable package static func renewalInfo(_ cursor: inout JSONCursor) -> JWSRenewalInfoDecodedPayload? {
        var r = JWSRenewalInfoDecodedPayload()
        let read = cursor.object { cursor, key in
            switch key {
            case "appAccountToken": return JSONCursor.set(&r.appAccountToken, cursor.uuid())
            case "appTransactionId": return JSONCursor.set(&r.appTransactionId, cursor.string())
            case "renewalBillingPlanType": return JSONCursor.set(&r.renewalBillingPlanType, cursor.enumeration())
            case "autoRenewProductId": return JSONCursor.set(&r.autoRenewProductId, cursor.string())
            case "autoRenewStatus": return JSONCursor.set(&r.autoRenewStatus, cursor.enumeration())
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
            case "environment": return JSONCursor.set(&r.environment, cursor.enumeration())
            case "expirationIntent": return JSONCursor.set(&r.expirationIntent, cursor.enumeration())
            case "gracePeriodExpiresDate": return JSONCursor.set(&r.gracePeriodExpiresDate, cursor.date())
            case "isInBillingRetryPeriod": return JSONCursor.set(&r.isInBillingRetryPeriod, cursor.bool())
            case "offerDiscountType": return JSONCursor.set(&r.offerDiscountType, cursor.enumeration())
            case "offerIdentifier": return JSONCursor.set(&r.offerIdentifier, cursor.string())
            case "offerPeriod": return JSONCursor.set(&r.offerPeriod, cursor.string())
            case "offerType": return JSONCursor.set(&r.offerType, cursor.enumeration())
            case "originalTransactionId": return JSONCursor.set(&r.originalTransactionId, cursor.string())
            case "priceIncreaseStatus": return JSONCursor.set(&r.priceIncreaseStatus, cursor.enumeration())
            case "productId": return JSONCursor.set(&r.productId, cursor.string())
            case "recentSubscriptionStartDate": return JSONCursor.set(&r.recentSubscriptionStartDate, cursor.date())
            case "renewalDate": return JSONCursor.set(&r.renewalDate, cursor.date())
            case "renewalPrice": return JSONCursor.set(&r.renewalPrice, cursor.integer(Int64.self))
            case "signedDate": return JSONCursor.set(&r.signedDate, cursor.date())
            default: return skip(key, unless: Keys.renewalInfo, &cursor)
            }
        }
        return read ? r : nil
    }

    /// Steps over the value of a key the type doesn't have; `false` for one of the type's own keys that
    /// isn't read here (its value is left to `JSONDecoder`).
    @inlinable static func skip(_ key: JSONKey, unless own: Set<String>, _ cursor: inout JSONCursor) -> Bool {
        !own.contains(key.string) && cursor.skipValue()
    }

    /// Each type's keys: its stored properties' names, which its synthesized `Codable` uses. Taken from
    /// the types themselves, so a property added later is left to `JSONDecoder` until it is read here.
    @usableFromInline enum Keys {
        @usableFromInline static let notification = names(of: ResponseBodyV2DecodedPayload())
        @usableFromInline static let notificationData = names(of: NotificationData())
        @usableFromInline static let transaction = names(of: JWSTransactionDecodedPayload())
        @usableFromInline static let renewalInfo = names(of: JWSRenewalInfoDecodedPayload())

        private static func names(of value: Any) -> Set<String> {
            Set(Mirror(reflecting: value).children.compactMap(\.label))
        }
    }
}
