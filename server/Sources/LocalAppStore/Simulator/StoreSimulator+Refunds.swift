import AppStoreModels
import EntitleCore
import Foundation

/// Refunds, refund reversals, consumption requests, family-sharing revocations, test notifications.
extension StoreSimulator {
    /// The customer asks Apple for a refund: CONSUMPTION_REQUEST, asking the developer for
    /// consumption information.
    public func consumptionRequest(_ original: String, reason: ConsumptionRequestReason = .unsatisfiedWithPurchase, at now: Date) throws(LocalStoreError) -> SignedNotification {
        let chain = try chain(original)
        return try notify(.consumptionRequest, nil, chain, at: now, consumptionRequestReason: reason)
    }

    /// Apple refunds the latest transaction: REFUND, revoked at once; family members lose it (REVOKE).
    /// `prorated`: a subscription's period is refunded for the time left (REFUND_PRORATED, the share as
    /// `revocationPercentage`), as Apple does when the developer asks for GRANT_PRORATED; otherwise, and
    /// for anything without a period, all of it (REFUND_FULL).
    public mutating func refund(
        _ original: String, reason: RevocationReason = .other, prorated: Bool = false, at now: Date
    ) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.ownership == .purchased, chain.phase != .revoked else {
            throw LocalStoreError(.invalidTransition, "\(original) can't be refunded (\(chain.phase.rawValue))")
        }
        chain.phaseBeforeRevocation = chain.phase
        chain.phase = .revoked
        chain.revocationDate = now
        chain.revocationReason = reason
        chain.revocationType = .refundFull
        chain.revocationPercentage = 100_000
        if prorated, let expires = chain.expiresDate, expires > chain.purchaseDate {
            let left = max(0, min(1, expires.timeIntervalSince(now) / expires.timeIntervalSince(chain.purchaseDate)))
            chain.revocationType = .refundProrated
            chain.revocationPercentage = Int32((left * 100_000).rounded())
        }
        chain.autoRenew = false
        subscriptions[original] = chain
        var notifications = [try notify(.refund, nil, chain, at: now)]
        for member in chain.familyMembers {
            guard var shared = subscriptions[member], shared.phase != .revoked else { continue }
            shared.phaseBeforeRevocation = shared.phase
            shared.phase = .revoked
            shared.revocationDate = now
            shared.revocationReason = reason
            subscriptions[member] = shared
            notifications.append(try notify(.revoke, nil, shared, at: now))
        }
        return notifications
    }

    /// Apple reverses a refund: REFUND_REVERSED; the purchase is restored.
    public mutating func reverseRefund(_ original: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var chain = try chain(original)
        guard chain.phase == .revoked, chain.ownership == .purchased else {
            throw LocalStoreError(.invalidTransition, "\(original) has no refund to reverse")
        }
        chain.phase = chain.phaseBeforeRevocation ?? .active
        chain.revocationDate = nil
        chain.revocationReason = nil
        chain.revocationType = nil
        chain.revocationPercentage = nil
        subscriptions[original] = chain
        return [try notify(.refundReversed, nil, chain, at: now)]
    }

    /// The purchaser stops sharing, or the member leaves the family: REVOKE for the member's chain.
    public mutating func stopFamilySharing(_ memberOriginal: String, at now: Date) throws(LocalStoreError) -> [SignedNotification] {
        var member = try chain(memberOriginal)
        guard member.ownership == .familyShared, member.phase != .revoked, let owner = member.familyOwner else {
            throw LocalStoreError(.invalidTransition, "\(memberOriginal) is not an active family-shared purchase")
        }
        member.phaseBeforeRevocation = member.phase
        member.phase = .revoked
        member.revocationDate = now
        member.revocationReason = .other
        subscriptions[memberOriginal] = member
        subscriptions[owner]?.familyMembers.removeAll { $0 == memberOriginal }
        return [try notify(.revoke, nil, member, at: now)]
    }

    /// A TEST notification (App Store Server API's "request a test notification").
    public func testNotification(at now: Date) throws(LocalStoreError) -> SignedNotification {
        try sign(ResponseBodyV2DecodedPayload(
            notificationType: .test, notificationUUID: UUID().uuidString.lowercased(),
            data: NotificationData(environment: environment, appAppleId: appAppleID, bundleId: bundleID), version: "2.0", signedDate: now),
            original: nil)
    }
}
