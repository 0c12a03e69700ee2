import Foundation

/// A use that waited in the queue and that the server refused once it was sent (the quota was spent
/// meanwhile, the feature is not metered…): it was not counted.
public struct RefusedUse: Sendable, Hashable {
    public var appUserID: String
    public var feature: String
    public var amount: Int
    public var idempotencyKey: String
    /// The server's refusal: ``EntitleError/serverCode`` says which (`usage.quotaExhausted`…).
    public var error: EntitleError

    public init(appUserID: String, feature: String, amount: Int, idempotencyKey: String, error: EntitleError) {
        self.appUserID = appUserID
        self.feature = feature
        self.amount = amount
        self.idempotencyKey = idempotencyKey
        self.error = error
    }
}
