import EntitleWire
import Foundation

/// Something the user registered against a numeric limit (a paired child device).
public struct Item: Sendable, Hashable, Identifiable {
    /// The catalog's limit it counts against (`childDevices`).
    public var limit: String
    /// The app's ID of the item.
    public var id: String
    public var name: String?
    /// When it was registered: the newest items are the ones a smaller limit pauses first.
    public var addedAt: Date
    /// Whether the limit pauses it now (a downgrade or a lapse left fewer allowed than registered).
    public var isPaused: Bool

    init(_ wire: ItemInfo) {
        limit = wire.limit
        id = wire.id
        name = wire.name
        addedAt = wire.addedAt
        isPaused = wire.isPaused
    }
}
