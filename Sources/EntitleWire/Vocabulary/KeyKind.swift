import Foundation

/// The kind of an API key: `app` (safe to ship in the app binary) or `secret` (a backend's).
public struct KeyKind: WireVocabulary {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let app = KeyKind(rawValue: "app")
    public static let secret = KeyKind(rawValue: "secret")

    public static let known: [KeyKind] = [.app, .secret]
}
