import AppStoreModels
import EntitleCore
import FastJSON
import Foundation

/// Writes the events a ledger holds most of (App Store notifications, transactions, renewal info, app
/// trial starts) as the ledger's `JSONEncoder` writes them, byte for byte, without `Codable`'s machinery
/// (half of what storing a notification's event and projection cost in JSON). Any other event, or one
/// with a member written only through `Codable`, is left to `JSONEncoder` (`nil`); the tests hold every
/// text written here to equal the encoder's.
enum StoredEventWriter {
    /// `event` as stored, or `nil` when `JSONEncoder` must write it.
    static func json(_ event: LedgerEvent) -> String? {
        var json = JSONText(capacity: 2_048)
        json.openObject()
        json.member("appUserID", event.appUserID?.rawValue)
        json.member("id", event.id)
        json.member("idempotencyKey", event.idempotencyKey)
        json.member("notificationUUID", event.notificationUUID)
        json.member("originalTransactionID", event.originalTransactionID?.rawValue)
        json.key("payload")
        guard payload(event.payload, to: &json) else { return nil }
        json.member("rawSignedPayload", event.rawSignedPayload)
        json.member("receivedAt", event.receivedAt)
        json.member("signedDate", event.signedDate)
        json.member("source", event.source.rawValue)
        json.member("transactionID", event.transactionID)
        json.closeObject()
        return json.failed ? nil : json.text
    }

    /// The payload's one case, as `Codable` writes an enum: `{"case": {"label": value, …}}`.
    private static func payload(_ payload: LedgerEventPayload, to json: inout JSONText) -> Bool {
        json.openObject()
        switch payload {
        case .notification(let type, let subtype, let transaction, let renewalInfo):
            json.key("notification")
            json.openObject()
            if let renewalInfo {
                json.key("renewalInfo")
                guard AppStorePayloadWriter.write(renewalInfo, to: &json) else { return false }
            }
            json.member("subtype", subtype)
            if let transaction {
                json.key("transaction")
                guard AppStorePayloadWriter.write(transaction, to: &json) else { return false }
            }
            json.member("type", type)
            json.closeObject()
        case .transaction(let transaction):
            json.key("transaction")
            json.openObject()
            json.key("_0")
            guard AppStorePayloadWriter.write(transaction, to: &json) else { return false }
            json.closeObject()
        case .renewalInfo(let renewalInfo):
            json.key("renewalInfo")
            json.openObject()
            json.key("_0")
            guard AppStorePayloadWriter.write(renewalInfo, to: &json) else { return false }
            json.closeObject()
        case .appTrialStarted(let at):
            json.key("appTrialStarted")
            json.openObject()
            json.member("at", at)
            json.closeObject()
        default:
            return false
        }
        json.closeObject()
        return true
    }
}
