import Foundation

/// `POST /local-store/v1/{bundleID}/expirations`: the customer of `account` turned renewal off and the
/// subscription `originalTransactionID` ends now, as a developer plays a lapse to try a win-back offer.
public struct LocalExpiryRequest: Codable, Hashable, Sendable {
    public var account: String
    public var originalTransactionID: String

    public init(account: String, originalTransactionID: String) {
        self.account = account
        self.originalTransactionID = originalTransactionID
    }
}
