import Foundation

/// Something the subscriber registered against a numeric limit (a paired child device).
public struct ItemInfo: Codable, Hashable, Sendable {
    /// The catalog's limit it counts against (`childDevices`).
    public var limit: String
    public var id: String
    public var name: String?
    /// When it was registered: the newest items are the ones paused first.
    public var addedAt: Date
    /// Whether the limit pauses it now (a downgrade or a lapse left fewer allowed than registered).
    public var isPaused: Bool

    public init(limit: String, id: String, name: String?, addedAt: Date, isPaused: Bool) {
        self.limit = limit
        self.id = id
        self.name = name
        self.addedAt = addedAt
        self.isPaused = isPaused
    }
}
