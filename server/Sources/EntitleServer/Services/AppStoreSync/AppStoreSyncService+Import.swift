import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleWire
import Foundation

/// Importing an app's existing customers (docs/import.md): each customer's history asked of Apple (Get
/// Transaction History v2, every page, and Get All Subscription Statuses for the renewal info), every
/// signed answer verified and stored as Apple sent it, under the app user ID the app gives, as event
/// source `import` (no webhooks). Idempotent: a second run records nothing twice. Apple's calls go
/// through the client's pacer, at Apple's published rate limits.
extension AppStoreSyncService {
    public func importCustomers(_ customers: [ImportCustomer]) async throws(ServiceError) -> [ImportResult] {
        guard (1...ImportCustomersRequest.largest).contains(customers.count) else {
            throw ServiceError(.invalidRequest, "import 1 to \(ImportCustomersRequest.largest) customers a request")
        }
        let serverAPI = try requireServerAPI()
        var results: [ImportResult] = []
        for customer in customers {
            results.append(try await importCustomer(customer, serverAPI))
        }
        return results
    }

    /// One customer: `not_found` and `invalid` are theirs alone; Apple unreachable or refusing the key
    /// stops the request (the importer retries it later: nothing is recorded twice).
    private func importCustomer(_ customer: ImportCustomer, _ serverAPI: AppStoreServerAPIClient) async throws(ServiceError) -> ImportResult {
        func result(_ outcome: String, transactions: Int = 0, purchases: Int = 0, message: String? = nil) -> ImportResult {
            ImportResult(appUserID: customer.appUserID, transactionID: customer.transactionID, outcome: outcome, transactions: transactions, purchases: purchases, message: message)
        }
        let appUserID: AppUserID
        do throws(ServiceError) {
            try Self.validate(AppUserID(customer.appUserID))
            try InputRules.checkAppleIdentifier(customer.transactionID, "transactionID")
            appUserID = try await canonical(AppUserID(customer.appUserID))
        } catch {
            return result("invalid", message: error.message)
        }
        var history: [(signed: String, transaction: JWSTransactionDecodedPayload)] = []
        var revision: String?
        do {
            repeat {
                let page = try await serverAPI.signedTransactionHistory(customer.transactionID, revision: revision)
                history += page.transactions
                revision = page.hasMore ? page.revision : nil
            } while revision != nil
        } catch where [AppStoreServerAPIError.transactionIdNotFound, AppStoreServerAPIError.invalidTransactionId,
                       AppStoreServerAPIError.originalTransactionIdNotFound].contains(error.code ?? 0) {
            return result("not_found", message: "Apple knows no transaction \(customer.transactionID) of this app")
        } catch {
            throw ServiceError(error)
        }
        var purchases: Set<OriginalTransactionID> = []
        var ownedElsewhere: Set<OriginalTransactionID> = []
        for (signed, transaction) in history {
            guard let original = transaction.purchaseChain else { continue }
            do throws(ServiceError) {
                _ = try await ingestion.recordTransaction(appUserID: appUserID, signedTransaction: signed, source: .import, claims: false)
                purchases.insert(original)
            } catch where error.code == .purchaseOwnedByAnotherSubscriber {
                ownedElsewhere.insert(original)
            }
        }
        // Each subscription's renewal info (whether and to what it renews), from its status.
        for original in purchases.sorted() where history.contains(where: { $0.transaction.purchaseChain == original && $0.transaction.type == .autoRenewable }) {
            let statuses: [(status: Int?, transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?)]
            do {
                statuses = try await serverAPI.subscriptionStatuses(original.rawValue)
            } catch {
                throw ServiceError(error)
            }
            for renewal in statuses.compactMap(\.renewalInfo) where renewal.purchaseChain == original {
                let signedAt = (renewal.signedDate ?? now()).millisecondsSince1970()
                _ = try await append(LedgerEvent(
                    id: UUID(), appUserID: appUserID, source: .import, idempotencyKey: "renewal:\(original):\(signedAt)", originalTransactionID: original,
                    signedDate: renewal.signedDate, receivedAt: now(), payload: .renewalInfo(renewal)))
            }
        }
        if purchases.isEmpty, !ownedElsewhere.isEmpty {
            return result(
                "owned_by_another", transactions: history.count,
                message: "\(ownedElsewhere.count) purchase\(ownedElsewhere.count == 1 ? "" : "s") already belong to another subscriber; kept there")
        }
        return result("imported", transactions: history.count, purchases: purchases.count)
    }
}
