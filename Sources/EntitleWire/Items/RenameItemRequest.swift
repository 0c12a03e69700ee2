import Foundation

/// `PATCH /v1/subscribers/{appUserID}/items/{limit}/{itemID}`: rename a registered item.
public struct RenameItemRequest: Codable, Hashable, Sendable {
    /// 1 to 100 characters.
    public var name: String

    public init(name: String) {
        self.name = name
    }
}
