/// A subscriber's ID as the app chose it (1 to 200 bytes of printable text), or an anonymous one (`$anon:` and a UUID).
public struct AppUserID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// What begins an anonymous subscriber's ID, made by the app before the user signs in.
    public static let anonymousPrefix = "$anon:"

    /// Whether the ID is an anonymous one (``anonymousPrefix``).
    public var isAnonymous: Bool { rawValue.hasPrefix(Self.anonymousPrefix) }
}
