import Foundation

/// The subscriber's registered items (`GET /v1/subscribers/{appUserID}/items`, and what renaming or
/// removing one answers): by limit, oldest first, each with whether the limit pauses it now.
public struct ItemsResponse: Codable, Hashable, Sendable {
    public var items: [ItemInfo]
    public var serverTime: Date

    public init(items: [ItemInfo], serverTime: Date) {
        self.items = items
        self.serverTime = serverTime
    }
}
