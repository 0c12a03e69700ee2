import AppStoreModels
import Foundation
import NIOConcurrencyHelpers

/// Get App Transaction Info and Finish Transaction, as the stand-in answers them.
extension LocalServerAPI {
    /// Whether the app's server finished `transactionID` (Finish Transaction).
    public func isFinished(transactionID: String) -> Bool { state.withLockedValue { $0.finished.contains(transactionID) } }

    /// The app transaction of the customer who owns `anyTransactionID` (a transaction, original
    /// transaction or app transaction ID), signed by the store: the app first obtained when the customer's
    /// first purchase was made, version 1.0. 404 (4040010) for an ID the store doesn't know.
    func appTransactionInfo(anyTransactionID: String) -> Answer {
        let issued = state.withLockedValue { $0.appTransactions[anyTransactionID] }
        guard let first = chain(of: issued ?? anyTransactionID).first?.decoded else { return Self.error(404, 4040010, "Transaction id not found.") }
        guard let store else { return Self.error(500, 5000000, "This stand-in has no store to sign app transactions.") }
        let original = first.originalTransactionId ?? first.transactionId ?? anyTransactionID
        let purchased = first.originalPurchaseDate ?? first.purchaseDate ?? now()
        let appTransaction = AppTransaction(
            receiptType: store.environment, appAppleId: 1234, bundleId: credentials.bundleID,
            applicationVersion: "1.0", receiptCreationDate: now(), originalPurchaseDate: purchased, originalApplicationVersion: "1.0",
            appTransactionId: Self.appTransactionPrefix + original, originalPlatform: .ios, signedDate: now())
        guard let signed = try? store.signer.sign(appTransaction) else { return Self.error(500, 5000000, "The app transaction can't be signed.") }
        state.withLockedValue { $0.appTransactions[Self.appTransactionPrefix + original] = original }
        return Self.json(["signedAppTransactionInfo": signed])
    }

    /// Records that the app's server finished `transactionID`: 200, again too; 404 (4040010) for a
    /// transaction the store doesn't know.
    func finishTransaction(_ transactionID: String) -> Answer {
        guard state.withLockedValue({ state in state.transactions.contains { $0.decoded.transactionId == transactionID } }) else {
            return Self.error(404, 4040010, "Transaction id not found.")
        }
        state.withLockedValue { _ = $0.finished.insert(transactionID) }
        return Answer(status: 200, headers: [:], body: Data())
    }

    /// The stand-in's app transaction IDs: this prefix, then the customer's first original transaction ID.
    static let appTransactionPrefix = "7"
}
