import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleStorage
import Foundation

extension SubscriptionService {
    /// The App Store Server API of this app, or ``ServiceError/Code/appStoreNotConfigured``.
    func requireServerAPI() throws(ServiceError) -> AppStoreServerAPIClient {
        guard let serverAPI else {
            throw ServiceError(.appStoreNotConfigured, "\(bundleID) has no App Store Server API key (--app-store-key)")
        }
        return serverAPI
    }

    /// Validates a purchase by its transaction ID alone: fetches the transaction from Apple (Get
    /// Transaction Info), then records it for `appUserID` exactly as if the app had submitted it.
    public func submitTransaction(appUserID: String, transactionID: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        guard (1...64).contains(transactionID.count), transactionID.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else {
            throw ServiceError(.invalidRequest, "transactionId is 1 to 64 letters and digits")
        }
        let serverAPI = try requireServerAPI()
        let fetched: (signed: String, transaction: JWSTransactionDecodedPayload)
        do {
            fetched = try await serverAPI.signedTransaction(transactionID)
        } catch {
            throw ServiceError(error)
        }
        return try await submitTransaction(appUserID: appUserID, signedTransaction: fetched.signed, source: .appStoreServerAPI)
    }

    /// Refreshes a subscriber from Apple (a support tool): each of their subscriptions' status (Get All
    /// Subscription Statuses) and each other purchase's transaction (Get Transaction Info), recorded
    /// where Apple says something the ledger doesn't know (source `app_store_server_api`, on the
    /// subscriber's timeline).
    public func refreshFromAppStore(appUserID: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let serverAPI = try requireServerAPI()
        let facts: SubscriberFacts?
        do {
            facts = try await store.projection(appUserID: appUserID)
        } catch {
            throw ServiceError(error)
        }
        guard let facts else { throw ServiceError(.notFound, "no subscriber \(appUserID)") }
        for purchase in facts.purchases.values.sorted(by: { $0.originalTransactionID < $1.originalTransactionID }) {
            guard let current = purchase.currentTransaction else { continue }
            if current.type == .autoRenewable {
                _ = try await refreshFromStatuses(purchase, appUserID: appUserID, serverAPI)
            } else if let id = current.transactionId {
                let fetched: (signed: String, transaction: JWSTransactionDecodedPayload)
                do {
                    fetched = try await serverAPI.signedTransaction(id)
                } catch {
                    throw ServiceError(error)
                }
                guard Self.tellsSomethingNew(fetched.transaction, purchase) || fetched.transaction.revocationDate != current.revocationDate else { continue }
                _ = try await submitTransaction(appUserID: appUserID, signedTransaction: fetched.signed, source: .appStoreServerAPI)
            }
        }
        return try await subscriber(appUserID: appUserID)
    }
}
