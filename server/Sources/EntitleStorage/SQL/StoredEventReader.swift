import AppStoreModels
import EntitleCore
import FastJSON
import Foundation

/// Reads the stored JSON of the events a ledger holds most of (App Store notifications, transactions,
/// renewal info, app trial starts) without `JSONDecoder`, whose `Codable` machinery costs most of what
/// reading a subscriber's history costs (analytics, rebuilds, consumers).
///
/// It reads only what the ledger's encoder writes, exactly: the keys of each type, each once, strings
/// without escapes, numbers in JSON's grammar, dates as milliseconds since 1970; the transactions and
/// renewal info inside through `AppStorePayloadReader`. On anything else (another event kind, a key the
/// event or its payload doesn't have, `null`, an escape, a nested type it doesn't read) it returns `nil`
/// and the event is decoded by `JSONDecoder`, so an event reads the same either way; the differential
/// tests and the fuzz target hold it to that.
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
            case "id": return JSONCursor.set(&id, cursor.uuid())
            case "appUserID": return JSONCursor.set(&appUserID, cursor.string())
            case "source": return JSONCursor.set(&source, cursor.string().flatMap(LedgerEventSource.init(rawValue:)))
            case "idempotencyKey": return JSONCursor.set(&idempotencyKey, cursor.string())
            case "notificationUUID": return JSONCursor.set(&notificationUUID, cursor.string())
            case "transactionID": return JSONCursor.set(&transactionID, cursor.string())
            case "originalTransactionID": return JSONCursor.set(&originalTransactionID, cursor.string())
            case "signedDate": return JSONCursor.set(&signedDate, cursor.date())
            case "receivedAt": return JSONCursor.set(&receivedAt, cursor.date())
            case "payload": return JSONCursor.set(&payload, self.payload(&cursor))
            case "rawSignedPayload": return JSONCursor.set(&rawSignedPayload, cursor.string())
            default: return false
            }
        }
        // A required key missing: `JSONDecoder` says so.
        guard read, let id, let source, let idempotencyKey, let receivedAt, let payload else { return nil }
        return LedgerEvent(
            id: id, appUserID: appUserID.map { AppUserID($0) }, source: source, idempotencyKey: idempotencyKey, notificationUUID: notificationUUID,
            transactionID: transactionID, originalTransactionID: originalTransactionID.map { OriginalTransactionID($0) }, signedDate: signedDate, receivedAt: receivedAt,
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
                    case "type": return JSONCursor.set(&type, cursor.enumeration())
                    case "subtype": return JSONCursor.set(&subtype, cursor.enumeration())
                    case "transaction": return JSONCursor.set(&transaction, AppStorePayloadReader.transaction(&cursor))
                    case "renewalInfo": return JSONCursor.set(&renewalInfo, AppStorePayloadReader.renewalInfo(&cursor))
                    default: return false
                    }
                }) else { return false }
                payload = .notification(type: type, subtype: subtype, transaction: transaction, renewalInfo: renewalInfo)
            case "transaction":
                var transaction: JWSTransactionDecodedPayload?
                guard cursor.object({ cursor, key in
                    guard key == "_0" else { return false }
                    return JSONCursor.set(&transaction, AppStorePayloadReader.transaction(&cursor))
                }), let transaction else { return false }
                payload = .transaction(transaction)
            case "renewalInfo":
                var info: JWSRenewalInfoDecodedPayload?
                guard cursor.object({ cursor, key in
                    guard key == "_0" else { return false }
                    return JSONCursor.set(&info, AppStorePayloadReader.renewalInfo(&cursor))
                }), let info else { return false }
                payload = .renewalInfo(info)
            case "appTrialStarted":
                var at: Date?
                guard cursor.object({ cursor, key in
                    guard key == "at" else { return false }
                    return JSONCursor.set(&at, cursor.date())
                }), let at else { return false }
                payload = .appTrialStarted(at: at)
            default:
                return false
            }
            return true
        }
        return read ? payload : nil
    }
}
