import Foundation

/// What the app did to something it counts against a numeric limit (a paired child device): a ledger
/// payload. Registering, renaming and removing are idempotent and commute (``RegisteredItem``), so the
/// registry is the same whatever order the changes arrive in.
public struct ItemChange: Hashable, Sendable, Codable {
    public enum Action: String, Hashable, Sendable, Codable {
        case register
        case rename
        case remove
    }

    /// The catalog's limit the item counts against (`childDevices`).
    public var limit: String
    /// The app's identifier of the item (a device's identifier for vendor, a pairing ID).
    public var itemID: String
    public var action: Action
    /// The name the app shows (registering or renaming); `nil` keeps the current one.
    public var name: String?
    public var at: Date

    public init(limit: String, itemID: String, action: Action, name: String? = nil, at: Date) {
        self.limit = limit
        self.itemID = itemID
        self.action = action
        self.name = name
        self.at = at
    }

    /// The longest item ID and name accepted, in characters.
    public static let maximumIDLength = 128
    public static let maximumNameLength = 100

    /// What is wrong with an item ID, if anything: 1 to 128 Unicode scalars, none of them white space, a
    /// control character or `/`.
    public static func problem(itemID: String) -> String? {
        guard !itemID.isEmpty, itemID.unicodeScalars.count <= maximumIDLength else { return "an item ID has 1 to \(maximumIDLength) characters" }
        guard !itemID.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control || $0 == "/" }) else {
            return "an item ID has no spaces, control characters or /"
        }
        return nil
    }

    /// What is wrong with an item's name, if anything: 1 to 100 Unicode scalars, no control characters.
    public static func problem(name: String) -> String? {
        guard !name.isEmpty, name.unicodeScalars.count <= maximumNameLength else { return "a name has 1 to \(maximumNameLength) characters" }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return "a name has no control characters" }
        return nil
    }
}
