import AppStoreModels
import EntitleCore
import Foundation

/// Apple's real-time Get Retention Message requests as the local App Store makes them: when a customer is
/// about to cancel, the store signs a ``DecodedRealtimeRequestBody`` for the subscription and posts it
/// (`{"signedPayload": …}`) to the app's endpoint, which answers which retention message to show.
public struct RetentionRequestSigner: Sendable {
    public let signer: AppStoreSigner
    public let environment: Environment
    public let appAppleID: Int64?

    public init(signer: AppStoreSigner, environment: Environment = .sandbox, appAppleID: Int64? = nil) {
        self.signer = signer
        self.environment = environment
        self.appAppleID = appAppleID
    }

    /// The signed request about `subscription`, from a device set to `locale`, at `now`.
    public func signedRequest(
        for subscription: SimulatedSubscription, locale: String, at now: Date, requestIdentifier: UUID = UUID()
    ) throws(LocalStoreError) -> String {
        guard subscription.kind == .autoRenewable else {
            throw LocalStoreError(.invalidTransition, "Apple asks for retention messages about auto-renewable subscriptions only")
        }
        return try signer.sign(DecodedRealtimeRequestBody(
            originalTransactionId: subscription.originalTransactionID, appAppleId: appAppleID, productId: subscription.productID, userLocale: locale,
            requestIdentifier: requestIdentifier, signedDate: now, environment: environment))
    }
}
