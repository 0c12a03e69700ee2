/// An app's bundle ID: which app a store, a service or a request is for.
public struct BundleID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
