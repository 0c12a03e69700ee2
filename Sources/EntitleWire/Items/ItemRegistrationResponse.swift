import Foundation

/// `POST /v1/subscribers/{appUserID}/items`: whether the item is registered, and the limit's access
/// answer — when the limit refused it, the reason (`limit_exceeded` with its maximum, or
/// `not_included`) and the paywall to show (`upgrade`, …).
public struct ItemRegistrationResponse: Codable, Hashable, Sendable {
    public var registered: Bool
    /// The limit's answer at the count asked for: the registered items, with this one.
    public var access: AccessResponse
    /// Every registered item after the request.
    public var items: [ItemInfo]

    public init(registered: Bool, access: AccessResponse, items: [ItemInfo]) {
        self.registered = registered
        self.access = access
        self.items = items
    }
}
