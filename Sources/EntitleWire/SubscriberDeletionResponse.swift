import Foundation

/// `DELETE /v1/subscribers/{appUserID}`: the customer's deletion (docs/deletion.md). Asked again, or of
/// an ID nothing is known of, it answers `deleted: false`: there is nothing left to delete.
public struct SubscriberDeletionResponse: Codable, Hashable, Sendable {
    /// The ID the deletion was asked for; no longer kept anywhere once the `subscriber_deleted` webhooks
    /// are delivered.
    public var appUserID: String
    /// Whether anything was kept of them and is now erased.
    public var deleted: Bool
    /// When.
    public var deletedAt: Date?
    /// Their own events, kept under a random pseudonym without what identified them.
    public var events: Int
    /// Other subscribers' events that named them (a transfer, a log-in, a claim, a household), renamed.
    public var mentions: Int

    public init(appUserID: String, deleted: Bool, deletedAt: Date? = nil, events: Int = 0, mentions: Int = 0) {
        self.appUserID = appUserID
        self.deleted = deleted
        self.deletedAt = deletedAt
        self.events = events
        self.mentions = mentions
    }
}
