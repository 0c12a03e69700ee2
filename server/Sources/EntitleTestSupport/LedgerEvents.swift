import AppStoreModels
import EntitleCore
import Foundation

/// Builders for ledger events as the server appends them.
public enum LedgerEvents {
    /// A deterministic event id from a seed, so tests compare whole events.
    public static func id(_ seed: Int) -> UUID {
        UUID(uuidString: String(format: "00000000-0000-4000-8000-%012x", seed))!
    }

    public static func notification(
        _ seed: Int, appUserID: AppUserID?, type: NotificationTypeV2, subtype: Subtype? = nil,
        transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload? = nil, receivedAt: Date? = nil
    ) -> LedgerEvent {
        let signed = [transaction?.signedDate, renewalInfo?.signedDate].compactMap { $0 }.max() ?? ReferenceTime.start
        return LedgerEvent(
            id: id(seed), appUserID: appUserID, source: .appStoreNotification, idempotencyKey: "notification:\(id(seed).uuidString)",
            notificationUUID: id(seed).uuidString, transactionID: transaction?.transactionId,
            originalTransactionID: transaction?.purchaseChain ?? renewalInfo?.purchaseChain, signedDate: signed,
            receivedAt: receivedAt ?? signed, payload: .notification(type: type, subtype: subtype, transaction: transaction, renewalInfo: renewalInfo),
            rawSignedPayload: "header.payload.signature")
    }

    public static func appTransaction(_ seed: Int, appUserID: AppUserID, _ transaction: JWSTransactionDecodedPayload) -> LedgerEvent {
        LedgerEvent(
            id: id(seed), appUserID: appUserID, source: .appTransaction, idempotencyKey: "transaction:\(transaction.transactionId ?? "")",
            transactionID: transaction.transactionId, originalTransactionID: transaction.originalTransactionId.map { OriginalTransactionID($0) },
            signedDate: transaction.signedDate, receivedAt: transaction.signedDate ?? ReferenceTime.start, payload: .transaction(transaction))
    }

    public static func admin(_ seed: Int, appUserID: AppUserID, at: Date, _ payload: LedgerEventPayload) -> LedgerEvent {
        LedgerEvent(id: id(seed), appUserID: appUserID, source: .admin, idempotencyKey: "admin:\(id(seed).uuidString)", signedDate: at, receivedAt: at, payload: payload)
    }
}
