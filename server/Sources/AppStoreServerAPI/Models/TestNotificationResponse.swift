import Foundation

/// Request a Test Notification: the token to ask for its status with.
public struct TestNotificationResponse: Codable, Hashable, Sendable {
    public var testNotificationToken: String?
}
