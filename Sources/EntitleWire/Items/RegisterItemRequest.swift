import Foundation

/// `POST /v1/subscribers/{appUserID}/items`: register something counted against a limit (pair a device).
public struct RegisterItemRequest: Codable, Hashable, Sendable {
    /// The catalog's limit it counts against (`childDevices`).
    public var limit: String
    /// The app's ID of the item: 1 to 128 characters, no spaces, control characters or `/`.
    public var id: String
    /// The name the app shows: 1 to 100 characters.
    public var name: String?

    public init(limit: String, id: String, name: String? = nil) {
        self.limit = limit
        self.id = id
        self.name = name
    }
}
