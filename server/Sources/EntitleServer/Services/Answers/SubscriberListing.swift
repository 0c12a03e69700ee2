import EntitleCore
import Foundation

/// A subscriber in the dashboard's list of recent ones: when their latest event arrived, their
/// purchases' states and their active entitlements now.
public struct SubscriberListing: Hashable, Sendable {
    public struct Purchase: Hashable, Sendable {
        public var productID: ProductID
        public var state: SubscriptionState
    }

    public var app: BundleID
    public var appUserID: AppUserID
    public var updatedAt: Date
    public var purchases: [Purchase]
    public var activeEntitlements: [String]
}
