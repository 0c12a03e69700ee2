import EntitleCore
import EntitleWire
import Foundation

/// Provisional grants (the app's `policies.provisionalGrantHours`): a purchase StoreKit verified while the
/// server couldn't be reached grants its entitlements for the policy's hours, until the server confirms
/// or refuses it. What it grants is EntitleCore's rule (`ProvisionalGrant`) over the policy the server
/// signed into its answer.
extension Entitle {
    /// Under the app's provisional grant policy (signed into the cached answer), records `transaction`'s
    /// purchase as granting its entitlements for the policy's hours, and answers the cached customer info
    /// with them; `nil` without a policy, a cached answer, or an entitlement the product grants.
    func grantProvisionally(_ transaction: SignedTransaction) -> CustomerInfo? {
        let now = configuration.now()
        guard let response = cache.load(appUserID: appUserID, now: now), let policy = response.provisionalGrant,
            !(policy.entitlements[transaction.productID] ?? []).isEmpty
        else { return nil }
        var grants = provisional.load(appUserID: appUserID).filter { $0.transactionID != transaction.transactionID }
        grants.append(ProvisionalGrant(productID: transaction.productID, transactionID: transaction.transactionID, verifiedAt: now))
        provisional.store(grants, appUserID: appUserID)
        return withProvisionalGrants(CustomerInfo(response: response, source: .cache, age: now.timeIntervalSince(response.serverTime)), at: now)
    }

    func withdrawProvisionalGrant(_ transactionID: String) {
        let grants = provisional.load(appUserID: appUserID)
        guard grants.contains(where: { $0.transactionID == transactionID }) else { return }
        provisional.store(grants.filter { $0.transactionID != transactionID }, appUserID: appUserID)
    }

    /// What the provisional grants standing in `info` add to its access gate at `now`: their products'
    /// access levels as the server signed them (EntitleCore's `ProvisionalGrant.access`); nothing without
    /// a policy, a standing grant, or an answer from a server that signs the levels.
    func provisionalAccess(_ info: CustomerInfo, at now: Date) -> AccessLevel {
        guard let policy = info.response.provisionalGrant, let levels = policy.access, !info.provisionalEntitlements.isEmpty else { return .nothing }
        let confirmed = Set((info.response.subscriptions + info.response.purchases).compactMap(\.latestTransactionID))
        let standing = ProvisionalGrant.standing(provisional.load(appUserID: appUserID), confirmed: confirmed, hours: policy.hours, at: now)
        return ProvisionalGrant.access(standing, accessByProduct: levels, hours: policy.hours, at: now)
    }

    /// `info` with the provisional grants that still stand: those past their hours, and those the answer
    /// confirms (it has their transaction), are dropped from the file.
    func withProvisionalGrants(_ info: CustomerInfo, at now: Date) -> CustomerInfo {
        let grants = provisional.load(appUserID: appUserID)
        guard !grants.isEmpty else { return info }
        let policy = info.response.provisionalGrant
        let confirmed = Set((info.response.subscriptions + info.response.purchases).compactMap(\.latestTransactionID))
        let standing = policy.map { ProvisionalGrant.standing(grants, confirmed: confirmed, hours: $0.hours, at: now) } ?? []
        if standing != grants { provisional.store(standing, appUserID: appUserID) }
        guard let policy else { return info }
        var info = info
        info.provisionalEntitlements = ProvisionalGrant.entitlements(standing, entitlementsByProduct: policy.entitlements, hours: policy.hours, at: now)
            .map { CustomerInfo.ProvisionalEntitlement(id: $0.entitlementID, productID: $0.productID, until: $0.until) }
        return info
    }
}
