import Foundation

/// Days added to a subscriber's app-managed trial by support (`POST /v1/subscribers/{id}/trial/extensions`):
/// the trial, its grace and the lockout all move that much later. Each has its own ID, so the same
/// request stored twice extends once.
public struct AppTrialExtension: Hashable, Sendable, Codable {
    public var id: String
    /// Whole days, 1 to ``longest``.
    public var days: Int
    public var reason: String?
    /// When it was granted.
    public var at: Date

    public init(id: String, days: Int, reason: String? = nil, at: Date) {
        self.id = id
        self.days = days
        self.reason = reason
        self.at = at
    }

    /// The most days one extension adds, and all of a subscriber's together.
    public static let longest = 366
}
