import Foundation

/// One entitlement of the entitlements file: the products that grant it and the access it gives.
public struct EntitlementDocument: Decodable, Sendable, Hashable {
    public var displayName: String?
    public var products: [String]
    public var access: AccessLevelDocument

    enum CodingKeys: String, CodingKey { case displayName, products }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        displayName = try container.decodeIfPresent(String.self, forKey: .displayName)
        products = try container.decode([String].self, forKey: .products)
        access = try AccessLevelDocument(from: decoder)
    }
}
