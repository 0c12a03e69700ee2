import EntitleCore
import Foundation

/// Subscribers found by a support search: IDs starting with the text, and the owner of the purchase
/// whose original transaction ID it is, if any.
public struct SubscriberSearch: Hashable, Sendable {
    public let query: String
    public let matches: [AppUserID]
    public let purchaseOwner: AppUserID?
}
