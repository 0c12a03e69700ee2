import Foundation

/// Get Notification History: one page of the notifications Apple sent (or tried to).
public struct NotificationHistoryResponse: Codable, Hashable, Sendable {
    public struct Item: Codable, Hashable, Sendable {
        public var signedPayload: String?
        public init(signedPayload: String?) { self.signedPayload = signedPayload }
    }

    public var notificationHistory: [Item]?
    public var hasMore: Bool?
    /// Where the next page starts (a query parameter of the next request).
    public var paginationToken: String?

    public init(notificationHistory: [Item]?, hasMore: Bool?, paginationToken: String?) {
        self.notificationHistory = notificationHistory
        self.hasMore = hasMore
        self.paginationToken = paginationToken
    }
}
