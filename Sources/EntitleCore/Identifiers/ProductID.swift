/// A product's ID in the App Store (and the `.storekit` file).
public struct ProductID: StringIdentifier {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}
