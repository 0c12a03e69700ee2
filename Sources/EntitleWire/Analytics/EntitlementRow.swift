import Foundation

/// One entitlement's subscriptions at the end of the report's last day: the sum over the products
/// that grant it.
public struct EntitlementRow: Hashable, Sendable, Codable {
    public var entitlement: String
    public var activePaid: Int64
    public var activeTrials: Int64
    public var activeFamilyShared: Int64
    public var mrr: [String: Int64]

    public init(entitlement: String, activePaid: Int64, activeTrials: Int64, activeFamilyShared: Int64, mrr: [String: Int64]) {
        self.entitlement = entitlement
        self.activePaid = activePaid
        self.activeTrials = activeTrials
        self.activeFamilyShared = activeFamilyShared
        self.mrr = mrr
    }
}
