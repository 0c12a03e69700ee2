import AppStoreModels
import Foundation

/// One immutable entry of the ledger: every accepted input is one, appended once.
///
/// `idempotencyKey` makes appending idempotent: the same notification (its `notificationUUID`), the
/// same signed version of an app-submitted transaction (its `transactionId` and `signedDate`) or the
/// same client usage key twice is one event.
public struct LedgerEvent: Hashable, Sendable, Codable, Identifiable {
    public var id: UUID
    /// The subscriber the event belongs to; `nil` for a notification about a purchase not yet linked
    /// to any subscriber (it is applied when the link appears).
    public var appUserID: AppUserID?
    public var source: LedgerEventSource
    public var idempotencyKey: String
    public var notificationUUID: String?
    public var transactionID: String?
    public var originalTransactionID: OriginalTransactionID?
    /// When Apple signed the data (or when the app or operator acted).
    public var signedDate: Date?
    public var receivedAt: Date
    public var payload: LedgerEventPayload
    /// The JWS as received, for audit and re-verification. Never logged.
    public var rawSignedPayload: String?

    public init(
        id: UUID, appUserID: AppUserID?, source: LedgerEventSource, idempotencyKey: String, notificationUUID: String? = nil,
        transactionID: String? = nil, originalTransactionID: OriginalTransactionID? = nil, signedDate: Date? = nil, receivedAt: Date,
        payload: LedgerEventPayload, rawSignedPayload: String? = nil
    ) {
        self.id = id
        self.appUserID = appUserID
        self.source = source
        self.idempotencyKey = idempotencyKey
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.signedDate = signedDate
        self.receivedAt = receivedAt
        self.payload = payload
        self.rawSignedPayload = rawSignedPayload
    }

    /// Apple's order: by signedDate, then the transaction's purchase date, then arrival, then id —
    /// a total order, so any permutation of the same events sorts the same way.
    public static func precedes(_ lhs: LedgerEvent, _ rhs: LedgerEvent) -> Bool {
        OrderKey(lhs) < OrderKey(rhs)
    }

    /// What Apple's order compares: signedDate (else arrival), the transaction's purchase date, arrival,
    /// then the id.
    struct OrderKey: Comparable {
        var signed: Date
        var purchase: Date
        var received: Date
        var id: UUID

        init(_ event: LedgerEvent) {
            signed = event.signedDate ?? event.receivedAt
            purchase = event.purchaseDate ?? .distantPast
            received = event.receivedAt
            id = event.id
        }

        static func < (l: OrderKey, r: OrderKey) -> Bool {
            let (left, right) = ((l.signed, l.purchase, l.received), (r.signed, r.purchase, r.received))
            // The ids' text only when everything else ties (it costs two strings).
            return left != right ? left < right : l.id.uuidString < r.id.uuidString
        }
    }

    var purchaseDate: Date? {
        switch payload {
        case .transaction(let transaction): transaction.purchaseDate
        case .notification(_, _, let transaction?, _): transaction.purchaseDate
        default: nil
        }
    }
}
