import EntitleCore
import Foundation

/// A subscriber as the dashboard's list of recent ones reads it: their projection and when their
/// latest event arrived.
public struct RecentSubscriber: Sendable {
    /// Where a page of recent subscribers ended: the next page starts after it.
    public struct Cursor: Hashable, Sendable {
        public var updatedAt: Date
        public var appUserID: AppUserID

        public init(updatedAt: Date, appUserID: AppUserID) {
            self.updatedAt = updatedAt
            self.appUserID = appUserID
        }
    }

    public var appUserID: AppUserID
    public var facts: SubscriberFacts
    public var updatedAt: Date
    public var cursor: Cursor { Cursor(updatedAt: updatedAt, appUserID: appUserID) }

    public init(appUserID: AppUserID, facts: SubscriberFacts, updatedAt: Date) {
        self.appUserID = appUserID
        self.facts = facts
        self.updatedAt = updatedAt
    }
}
