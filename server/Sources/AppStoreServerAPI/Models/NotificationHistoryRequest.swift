import Foundation

/// Get Notification History's body: the window (Unix milliseconds) and optional filters.
public struct NotificationHistoryRequest: Codable, Hashable, Sendable {
    public var startDate: Int64
    public var endDate: Int64
    public var notificationType: String?
    public var transactionId: String?
    public var onlyFailures: Bool?

    public init(startDate: Date, endDate: Date, notificationType: String? = nil, transactionId: String? = nil, onlyFailures: Bool? = nil) {
        self.startDate = Int64((startDate.timeIntervalSince1970 * 1000).rounded(.down))
        self.endDate = Int64((endDate.timeIntervalSince1970 * 1000).rounded(.down))
        self.notificationType = notificationType
        self.transactionId = transactionId
        self.onlyFailures = onlyFailures
    }
}
