import AppStoreModels
import AppStoreServerAPI
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// Get App Transaction Info and Finish Transaction.
extension AppStoreSyncService {
    /// The subscriber's app transaction, from Apple (Get App Transaction Info by one of their purchases'
    /// transaction IDs), verified: when and in which version they first got the app. A subscriber with no
    /// purchase has no transaction ID to ask Apple with: ``ServiceError/Code/notFound``.
    public func appTransaction(appUserID: AppUserID) async throws(ServiceError) -> AppTransaction {
        let (appUserID, serverAPI, facts) = try await subscriberForAppStore(appUserID)
        // The earliest purchase: any of the customer's transaction IDs names the same app transaction.
        guard let anyTransactionID = facts?.purchases.keys.sorted().first?.rawValue else {
            throw ServiceError(.notFound, "\(appUserID) has no purchase whose transaction ID Apple could be asked about")
        }
        do {
            return try await serverAPI.appTransaction(anyTransactionID)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Tells Apple the app's server delivered what `transactionID` bought (Finish Transaction), for apps
    /// that deliver from their server rather than calling StoreKit's `finish()`.
    public func finishTransaction(_ transactionID: String) async throws(ServiceError) {
        try InputRules.checkAppleIdentifier(transactionID, "transactionId")
        let serverAPI = try requireServerAPI()
        do {
            try await serverAPI.finishTransaction(transactionID)
        } catch {
            throw ServiceError(error)
        }
        logger.info("transaction finished with the App Store")
    }
}
