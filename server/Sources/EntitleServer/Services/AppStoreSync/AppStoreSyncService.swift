import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// Keeping the ledger in step with Apple's App Store Server API: reconciliation passes (and the jobs
/// requests start), look-ups by transaction or order ID, refreshing a subscriber, renewal extensions.
public struct AppStoreSyncService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore
    /// The leases of its background jobs.
    let leases: any JobLeases
    /// Admin jobs a request starts and the caller polls.
    let adminJobs: any AdminJobStore
    /// Customer imports a request starts, carried on in the background.
    let importJobs: any ImportJobStore
    /// Apple's App Store Server API for this app, when configured.
    let serverAPI: AppStoreServerAPIClient?
    /// What Apple answers goes through the same path as what the app submits.
    let ingestion: IngestionService
    let subscribers: SubscriberService

    /// Whether this app reaches the App Store Server API (its in-app purchase key is configured).
    public var hasServerAPI: Bool { serverAPI != nil }

    /// The App Store Server API of this app, or ``ServiceError/Code/appStoreNotConfigured``.
    func requireServerAPI() throws(ServiceError) -> AppStoreServerAPIClient {
        guard let serverAPI else {
            throw ServiceError(.appStoreNotConfigured, "\(bundleID) has no App Store Server API key (--app-store-key)")
        }
        return serverAPI
    }

    /// Validates a purchase by its transaction ID alone: fetches the transaction from Apple (Get
    /// Transaction Info), then records it for `appUserID` exactly as if the app had submitted it.
    public func submitTransaction(appUserID: AppUserID, transactionID: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        try InputRules.checkAppleIdentifier(transactionID, "transactionId")
        let serverAPI = try requireServerAPI()
        let fetched: (signed: String, transaction: JWSTransactionDecodedPayload)
        do {
            fetched = try await serverAPI.signedTransaction(transactionID)
        } catch {
            throw ServiceError(error)
        }
        return try await ingestion.submitTransaction(appUserID: appUserID, signedTransaction: fetched.signed, source: .appStoreServerAPI)
    }

    /// Refreshes a subscriber from Apple (a support tool): each of their subscriptions' status (Get All
    /// Subscription Statuses) and each other purchase's transaction (Get Transaction Info), recorded
    /// where Apple says something the ledger doesn't know (source `app_store_server_api`, on the
    /// subscriber's timeline).
    public func refreshFromAppStore(appUserID: AppUserID) async throws(ServiceError) -> SubscriberAnswer {
        let (appUserID, serverAPI, known) = try await subscriberForAppStore(appUserID)
        guard let facts = known else { throw ServiceError(.notFound, "no subscriber \(appUserID)") }
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
                _ = try await ingestion.submitTransaction(appUserID: appUserID, signedTransaction: fetched.signed, source: .appStoreServerAPI)
            }
        }
        return try await subscribers.subscriber(appUserID: appUserID)
    }
}

extension AppStoreSyncService {
    /// What asking Apple about a subscriber starts from: their canonical ID, this app's App Store Server API
    /// (``ServiceError/Code/appStoreNotConfigured`` without it), and their facts (`nil` for an unknown one).
    func subscriberForAppStore(
        _ appUserID: AppUserID
    ) async throws(ServiceError) -> (appUserID: AppUserID, serverAPI: AppStoreServerAPIClient, facts: SubscriberFacts?) {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let serverAPI = try requireServerAPI()
        do {
            return (appUserID, serverAPI, try await projections.projection(appUserID: appUserID))
        } catch {
            throw ServiceError(error)
        }
    }

    /// Looks up an order ID from a customer's receipt email (Look Up Order ID): the order's
    /// transactions, each with the subscriber its purchase belongs to here, if any.
    public func lookUpOrder(_ orderID: String) async throws(ServiceError) -> OrderLookup {
        try InputRules.checkAppleIdentifier(orderID, "an order ID")
        let serverAPI = try requireServerAPI()
        let transactions: [JWSTransactionDecodedPayload]?
        do {
            transactions = try await serverAPI.lookUpOrder(orderID)
        } catch {
            throw ServiceError(error)
        }
        var purchases: [OrderLookup.Purchase] = []
        for transaction in transactions ?? [] {
            let original = transaction.purchaseChain ?? ""
            let owner: AppUserID?
            do {
                owner = try await identity.owner(originalTransactionID: original)
            } catch {
                throw ServiceError(error)
            }
            purchases.append(OrderLookup.Purchase(transaction: transaction, owner: owner))
        }
        return OrderLookup(orderID: orderID, found: transactions != nil, purchases: purchases)
    }

    /// Extends the renewal date of the subscriber's subscription `originalTransactionID` (or of every
    /// active one) with Apple, by `days` (1 to 90) for Apple's `reasonCode` (0 undeclared, 1 customer
    /// satisfaction, 2 other, 3 service issue), then records Apple's new transaction, so the answer
    /// and the timeline show the new expiry at once.
    public func extendRenewal(
        appUserID: AppUserID, originalTransactionID: OriginalTransactionID?, days: Int, reasonCode: Int
    ) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        guard (1...90).contains(days), (0...3).contains(reasonCode) else {
            throw ServiceError(.invalidRequest, "an extension is 1 to 90 days with Apple's reason code 0 to 3")
        }
        let appUserID = try await canonical(appUserID)
        let serverAPI = try requireServerAPI()
        let facts: SubscriberFacts?
        do {
            facts = try await projections.projection(appUserID: appUserID)
        } catch {
            throw ServiceError(error)
        }
        let at = now()
        let chosen = (facts?.purchases.values).map(Array.init)?.filter { purchase in
            guard let current = purchase.currentTransaction, current.type == .autoRenewable else { return false }
            if let originalTransactionID { return purchase.originalTransactionID == originalTransactionID }
            return current.revocationDate == nil && (current.expiresDate ?? .distantPast) > at
        } ?? []
        guard !chosen.isEmpty else {
            throw ServiceError(.notFound, originalTransactionID.map { "\(appUserID) has no subscription \($0)" } ?? "\(appUserID) has no active subscription")
        }
        for purchase in chosen.sorted(by: { $0.originalTransactionID < $1.originalTransactionID }) {
            do {
                let answer = try await serverAPI.extendRenewalDate(
                    purchase.originalTransactionID.rawValue,
                    ExtendRenewalDateRequest(extendByDays: days, extendReasonCode: reasonCode, requestIdentifier: UUID().uuidString.lowercased()))
                guard answer.success == true else {
                    throw ServiceError(.appStoreRefused, "Apple did not extend \(purchase.originalTransactionID)")
                }
            } catch let error as AppStoreServerAPIError {
                throw ServiceError(error)
            } catch let error as ServiceError {
                throw error
            } catch {
                throw ServiceError(.internalError, "the extension failed", underlying: error)
            }
            _ = try await refreshFromStatuses(purchase, appUserID: appUserID, serverAPI)
            logger.info("renewal extended", metadata: ["purchase.original_transaction_id": "\(purchase.originalTransactionID)", "days": "\(days)"])
        }
        return try await subscribers.subscriber(appUserID: appUserID)
    }
}
