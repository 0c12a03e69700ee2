import AppStoreModels
import Foundation

/// The kind of an in-app purchase product.
public enum ProductKind: String, Hashable, Sendable, Codable, CaseIterable {
    case autoRenewable = "auto_renewable"
    case nonRenewing = "non_renewing"
    case nonConsumable = "non_consumable"
    case consumable

    /// The kind of a product from the `type` Apple puts in its transactions.
    public init?(_ type: ProductType) {
        switch type {
        case .autoRenewable: self = .autoRenewable
        case .nonRenewing: self = .nonRenewing
        case .nonConsumable: self = .nonConsumable
        case .consumable: self = .consumable
        default: return nil
        }
    }
}
