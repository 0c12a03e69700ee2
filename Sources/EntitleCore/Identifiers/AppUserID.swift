import Foundation

/// A subscriber's ID as the app chose it (1 to 200 bytes of printable text), or an anonymous one (`$anon:` and a UUID).
public struct AppUserID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// What begins an anonymous subscriber's ID, made by the app before the user signs in.
    public static let anonymousPrefix = "$anon:"

    /// Whether the ID is an anonymous one (``anonymousPrefix``).
    public var isAnonymous: Bool { rawValue.hasPrefix(Self.anonymousPrefix) }
}

extension AppUserID {
    /// The longest app user ID, in bytes of UTF-8.
    public static let maximumLength = 200

    /// What is wrong with the ID, or `nil` when it is one: 1 to 200 bytes of printable text; an
    /// anonymous one is ``anonymousPrefix`` and a UUID. The server and EntitleKit check with this.
    public var problem: String? {
        guard !rawValue.isEmpty else { return "the app user ID is empty" }
        guard rawValue.utf8.count <= Self.maximumLength else {
            return "the app user ID is \(rawValue.utf8.count) bytes of UTF-8; at most \(Self.maximumLength)"
        }
        guard rawValue.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else {
            return "the app user ID holds a control character; it is printable text"
        }
        if isAnonymous, UUID(uuidString: String(rawValue.dropFirst(Self.anonymousPrefix.count))) == nil {
            return "an anonymous app user ID is \(Self.anonymousPrefix) and a UUID"
        }
        return nil
    }

    /// A new anonymous ID: ``anonymousPrefix`` and a random UUID, lowercased.
    public static func newAnonymous() -> AppUserID { AppUserID(anonymousPrefix + UUID().uuidString.lowercased()) }
}
