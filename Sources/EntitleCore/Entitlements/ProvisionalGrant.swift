import Foundation

/// A purchase the device verified (StoreKit's signature) while the server could not be reached, under
/// an app's opt-in `policies.provisionalGrantHours` (seed 004: the app keeps working right after a
/// purchase when the server is unreachable). It grants its product's entitlements for the policy's hours
/// from the moment it was verified, until the server confirms the purchase (its answer then grants
/// them) or refuses it. The SDK keeps these; this is the one rule of what they grant.
public struct ProvisionalGrant: Hashable, Sendable, Codable {
    public var productID: String
    public var transactionID: String
    /// When the device verified the purchase (the device's clock).
    public var verifiedAt: Date

    public init(productID: String, transactionID: String, verifiedAt: Date) {
        self.productID = productID
        self.transactionID = transactionID
        self.verifiedAt = verifiedAt
    }

    /// Until when it grants, under a policy of `hours`.
    public func endsAt(hours: Int) -> Date {
        verifiedAt.addingTimeInterval(TimeInterval(min(max(hours, 0), AccessPolicies.longestProvisionalGrantHours)) * 3_600)
    }

    /// Whether it grants at `now`: from its verification until `hours` later (a device clock set back
    /// before the verification grants nothing).
    public func isActive(hours: Int, at now: Date) -> Bool {
        verifiedAt <= now && now < endsAt(hours: hours)
    }

    /// The entitlements `grants` give at `now`, each with the product and the end of its grant (the
    /// latest when several give it), by the catalog's products → entitlements the server signed.
    public static func entitlements(
        _ grants: [ProvisionalGrant], entitlementsByProduct: [String: [String]], hours: Int, at now: Date
    ) -> [(entitlementID: String, productID: String, until: Date)] {
        var best: [String: (productID: String, until: Date)] = [:]
        for grant in grants where grant.isActive(hours: hours, at: now) {
            for id in entitlementsByProduct[grant.productID] ?? [] {
                let until = grant.endsAt(hours: hours)
                if let existing = best[id], existing.until >= until { continue }
                best[id] = (grant.productID, until)
            }
        }
        return best.keys.sorted().compactMap { id in best[id].map { (id, $0.productID, $0.until) } }
    }

    /// What `grants` give at `now`: the union of the access levels of the active grants' products, by the
    /// catalog's product → access level the server signed (`AccessGate/granting(_:)` puts it on a gate).
    public static func access(_ grants: [ProvisionalGrant], accessByProduct: [String: AccessLevel], hours: Int, at now: Date) -> AccessLevel {
        grants.filter { $0.isActive(hours: hours, at: now) }.reduce(AccessLevel.nothing) { $0.union(accessByProduct[$1.productID] ?? .nothing) }
    }

    /// The grants still standing at `now`: active, and not confirmed by an answer whose transactions
    /// (each purchase's latest) are `confirmed`.
    public static func standing(_ grants: [ProvisionalGrant], confirmed: Set<String>, hours: Int, at now: Date) -> [ProvisionalGrant] {
        grants.filter { $0.isActive(hours: hours, at: now) && !confirmed.contains($0.transactionID) }
    }
}
