import Foundation

/// One product's subscriptions at the end of the report's last day.
public struct ProductRow: Hashable, Sendable, Codable {
    public var product: String
    /// The entitlements the catalog says the product grants.
    public var entitlements: [String]
    public var activePaid: Int64
    public var activeTrials: Int64
    public var activeFamilyShared: Int64
    public var mrr: [String: Int64]

    public init(product: String, entitlements: [String], activePaid: Int64, activeTrials: Int64, activeFamilyShared: Int64, mrr: [String: Int64]) {
        self.product = product
        self.entitlements = entitlements
        self.activePaid = activePaid
        self.activeTrials = activeTrials
        self.activeFamilyShared = activeFamilyShared
        self.mrr = mrr
    }
}
