import Foundation

/// A declared feature or limit of the entitlements file.
public struct FeatureDocument: Decodable, Sendable, Hashable {
    public var description: String?
}
