/// A subscriber's ID as the app chose it (1 to 200 bytes of printable text), or an anonymous one (`$anon:` and a UUID).
public struct AppUserID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
