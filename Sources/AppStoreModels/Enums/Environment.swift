import Foundation

/// The server environment, sandbox or production, or Xcode's local environments.
///
/// [Environment](https://developer.apple.com/documentation/appstoreserverapi/environment)
public struct Environment: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let production = Environment(rawValue: "Production")
    public static let sandbox = Environment(rawValue: "Sandbox")
    public static let xcode = Environment(rawValue: "Xcode")
    public static let localTesting = Environment(rawValue: "LocalTesting")

    public static let documented: [(value: Environment, name: String)] = [
        (.production, "Production"),
        (.sandbox, "Sandbox"),
        (.xcode, "Xcode"),
        (.localTesting, "LocalTesting"),
    ]
}
