import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import EntitleCore
import EntitleWire
import Foundation

/// Importing an app's existing customers (docs/import.md): each customer's history asked of Apple (Get
/// Transaction History v2, every page, and Get All Subscription Statuses for the renewal info), every
/// signed answer verified and stored as Apple sent it, under the app user ID the app gives, as event
/// source `import` (no webhooks). Idempotent: a second run records nothing twice. Apple's calls go
/// through the client's pacer, at Apple's published rate limits.
extension AppStoreSyncService {
    /// - Parameter webhooks: whether the history sends webhooks as if it had just happened (recorded as
    ///   from the App Store Server API); by default it is the subscribers' baseline (source `import`).
    public func importCustomers(_ customers: [ImportCustomer], webhooks: Bool = false) async throws(ServiceError) -> [ImportResult] {
        guard (1...ImportCustomersRequest.largest).contains(customers.count) else {
            throw ServiceError(.invalidRequest, "import 1 to \(ImportCustomersRequest.largest) customers a request")
        }
        let serverAPI = try requireServerAPI()
        var results: [ImportResult] = []
        for customer in customers {
            results.append(try await importCustomer(customer, serverAPI, source: webhooks ? .appStoreServerAPI : .import))
        }
        return results
    }

    /// One customer: `not_found` and `invalid` are theirs alone; Apple unreachable or refusing the key
    /// stops the request (the importer retries it later: nothing is recorded twice).
    private func importCustomer(
        _ customer: ImportCustomer, _ serverAPI: AppStoreServerAPIClient, source: LedgerEventSource
    ) async throws(ServiceError) -> ImportResult {
        var asked = customer.transactionID ?? ""
        func result(_ outcome: String, transactions: Int = 0, purchases: Int = 0, message: String? = nil) -> ImportResult {
            ImportResult(appUserID: customer.appUserID, transactionID: asked, outcome: outcome, transactions: transactions, purchases: purchases, message: message)
        }
        let appUserID: AppUserID
        let candidates: [String]
        do throws(ServiceError) {
            try Self.validate(AppUserID(customer.appUserID))
            candidates = try transactionIDs(of: customer)
            appUserID = try await canonical(AppUserID(customer.appUserID))
        } catch {
            return result("invalid", message: error.message)
        }
        var history: [(signed: String, transaction: JWSTransactionDecodedPayload)] = []
        var found = false
        for candidate in candidates where !found {
            asked = candidate
            if let known = try await Self.history(of: candidate, serverAPI) { (history, found) = (known, true) }
        }
        guard found else {
            let named = customer.transactionID.map { "transaction \($0)" } ?? "transaction of the receipt (\(candidates.count) read)"
            if customer.transactionID == nil { asked = "" }
            return result("not_found", message: "Apple knows no \(named) of this app")
        }
        var purchases: Set<OriginalTransactionID> = []
        var ownedElsewhere: Set<OriginalTransactionID> = []
        for (signed, transaction) in history {
            guard let original = transaction.purchaseChain else { continue }
            do throws(ServiceError) {
                _ = try await ingestion.recordTransaction(appUserID: appUserID, signedTransaction: signed, source: source, claims: false)
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
                    id: UUID(), appUserID: appUserID, source: source, idempotencyKey: "renewal:\(original):\(signedAt)", originalTransactionID: original,
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

    /// The most transaction IDs of one receipt asked of Apple: any one of a customer's gives their whole history.
    static let receiptCandidates = 10

    /// The transaction IDs to ask Apple about for `customer`: the one given, or those its receipt lists.
    private func transactionIDs(of customer: ImportCustomer) throws(ServiceError) -> [String] {
        switch (customer.transactionID, customer.receipt) {
        case (let id?, nil):
            try InputRules.checkAppleIdentifier(id, "transactionID")
            return [id]
        case (nil, let receipt?):
            let ids: [String]
            do {
                ids = try AppReceiptReader.transactionIDs(base64: receipt, bundleID: bundleID.rawValue)
            } catch {
                throw ServiceError(.invalidRequest, "receipt: \(error.code): \(error.message)")
            }
            let usable = ids.filter { (try? InputRules.checkAppleIdentifier($0, "transactionID")) != nil }
            guard !usable.isEmpty else { throw ServiceError(.invalidRequest, "receipt: no transaction ID of the receipt can be one") }
            return Array(usable.prefix(Self.receiptCandidates))
        default:
            throw ServiceError(.invalidRequest, "give transactionID or receipt, one of them")
        }
    }

    /// Apple's whole history through `transactionID` (every page), or `nil` when Apple knows no such transaction.
    private static func history(
        of transactionID: String, _ serverAPI: AppStoreServerAPIClient
    ) async throws(ServiceError) -> [(signed: String, transaction: JWSTransactionDecodedPayload)]? {
        var history: [(signed: String, transaction: JWSTransactionDecodedPayload)] = []
        var revision: String?
        do {
            repeat {
                let page = try await serverAPI.signedTransactionHistory(transactionID, revision: revision)
                history += page.transactions
                revision = page.hasMore ? page.revision : nil
            } while revision != nil
        } catch where [AppStoreServerAPIError.transactionIdNotFound, AppStoreServerAPIError.invalidTransactionId,
                       AppStoreServerAPIError.originalTransactionIdNotFound].contains(error.code ?? 0) {
            return nil
        } catch {
            throw ServiceError(error)
        }
        return history
    }
}
