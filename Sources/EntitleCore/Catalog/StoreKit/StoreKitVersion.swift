import Foundation

/// The format version Xcode wrote into a `.storekit` file (`{"major": 3, "minor": 0}`).
public struct StoreKitVersion: Decodable, Sendable, Hashable {
    public var major: Int
    public var minor: Int
}
