import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Logging

extension SubscriptionService {
    /// Grants an entitlement for a period, as a ledger event.
    public func grant(appUserID: String, _ request: GrantRequest) async throws(ServiceError) -> SubscriberResponse {
        try Self.validate(appUserID)
        guard catalog.entitlement(request.entitlementID) != nil else {
            throw ServiceError(.invalidRequest, "\(request.entitlementID) is not an entitlement of this app", status: 400)
        }
        let at = now()
        let grant = EntitlementGrant(
            id: UUID().uuidString.lowercased(), entitlementID: request.entitlementID, startsAt: request.startsAt ?? at, endsAt: request.endsAt,
            reason: request.reason)
        if let endsAt = grant.endsAt, endsAt <= grant.startsAt {
            throw ServiceError(.invalidRequest, "endsAt must be after startsAt", status: 400)
        }
        try await appendAdmin(appUserID, .grant(grant), at: at)
        return try await subscriber(appUserID: appUserID)
    }

    public func revokeGrant(appUserID: String, grantID: String) async throws(ServiceError) -> SubscriberResponse {
        let at = now()
        try await appendAdmin(appUserID, .grantRevoked(grantID: grantID, at: at), at: at)
        return try await subscriber(appUserID: appUserID)
    }

    /// Lifts every limit and quota for the subscriber until `endsAt` (or removal).
    public func addOverride(appUserID: String, _ request: OverrideRequest) async throws(ServiceError) -> SubscriberResponse {
        let at = now()
        let override = AccessOverride(id: UUID().uuidString.lowercased(), startsAt: at, endsAt: request.endsAt, reason: request.reason)
        try await appendAdmin(appUserID, .override(override), at: at)
        return try await subscriber(appUserID: appUserID)
    }

    public func removeOverride(appUserID: String, overrideID: String) async throws(ServiceError) -> SubscriberResponse {
        let at = now()
        try await appendAdmin(appUserID, .overrideRemoved(overrideID: overrideID, at: at), at: at)
        return try await subscriber(appUserID: appUserID)
    }

    /// The global open-access window in force (or scheduled), if any.
    public func openAccess() async throws(ServiceError) -> OpenAccessWindow? {
        let event: LedgerEvent?
        do {
            event = try await store.latestGlobalEvent(source: .openAccess)
        } catch {
            throw ServiceError(error)
        }
        guard case .openAccessSet(let window)? = event?.payload else { return nil }
        return window
    }

    /// Turns on "grant access to everyone until `endsAt`" (seed 004's rollback plan), for the listed
    /// entitlements or all of them; or turns it off with `nil`.
    public func setOpenAccess(endsAt: Date?, entitlementIDs: [String], reason: String?) async throws(ServiceError) -> OpenAccessWindow? {
        let at = now()
        var window: OpenAccessWindow?
        if let endsAt {
            guard endsAt > at else { throw ServiceError(.invalidRequest, "endsAt must be in the future", status: 400) }
            for id in entitlementIDs where catalog.entitlement(id) == nil {
                throw ServiceError(.invalidRequest, "\(id) is not an entitlement of this app", status: 400)
            }
            window = OpenAccessWindow(startsAt: at, endsAt: endsAt, entitlementIDs: entitlementIDs, reason: reason)
        }
        let id = UUID()
        do {
            _ = try await store.append(LedgerEvent(
                id: id, appUserID: nil, source: .openAccess, idempotencyKey: "open-access:\(id.uuidString)", signedDate: at, receivedAt: at,
                payload: .openAccessSet(window)))
        } catch {
            throw ServiceError(error)
        }
        logger.warning("open access changed", metadata: ["open_access.ends_at": "\(endsAt.map { "\($0)" } ?? "off")"])
        return window
    }

    /// Adds `memberID` to the household `householdID`: the member shares the household's entitlements.
    public func addMember(householdID: String, memberID: String) async throws(ServiceError) -> SubscriberResponse {
        try Self.validate(householdID)
        guard householdID != memberID else { throw ServiceError(.invalidRequest, "a household can't be its own member", status: 400) }
        let at = now()
        try await appendAdmin(memberID, .householdJoined(householdID: householdID, at: at), at: at)
        return try await subscriber(appUserID: memberID)
    }

    public func removeMember(householdID: String, memberID: String) async throws(ServiceError) -> SubscriberResponse {
        try Self.validate(householdID)
        let at = now()
        try await appendAdmin(memberID, .householdLeft(householdID: householdID, at: at), at: at)
        return try await subscriber(appUserID: memberID)
    }

    /// The subscriber's events in the order they were stored, without signed payloads.
    public func timeline(appUserID: String) async throws(ServiceError) -> [TimelineEvent] {
        try Self.validate(appUserID)
        let events: [LedgerEvent]
        do {
            events = try await store.events(appUserID: appUserID)
        } catch {
            throw ServiceError(error)
        }
        return events.map { event in
            TimelineEvent(
                id: event.id.uuidString.lowercased(), source: event.source.rawValue, kind: Self.kind(of: event.payload),
                notificationUUID: event.notificationUUID, transactionID: event.transactionID,
                originalTransactionID: event.originalTransactionID, signedDate: event.signedDate, receivedAt: event.receivedAt)
        }
    }

    /// Who owns a purchase, and how many notifications wait for its link.
    public func lookup(originalTransactionID: String) async throws(ServiceError) -> PurchaseLookupResponse {
        do {
            return PurchaseLookupResponse(
                originalTransactionID: originalTransactionID, appUserID: try await store.owner(originalTransactionID: originalTransactionID),
                heldEvents: try await store.heldEvents(originalTransactionID: originalTransactionID).count)
        } catch {
            throw ServiceError(error)
        }
    }

    private func appendAdmin(_ appUserID: String, _ payload: LedgerEventPayload, at: Date) async throws(ServiceError) {
        try Self.validate(appUserID)
        let id = UUID()
        do {
            _ = try await store.append(LedgerEvent(
                id: id, appUserID: appUserID, source: .admin, idempotencyKey: "admin:\(id.uuidString)", signedDate: at, receivedAt: at, payload: payload))
        } catch {
            throw ServiceError(error)
        }
    }

    static func kind(of payload: LedgerEventPayload) -> String {
        switch payload {
        case .notification(let type, let subtype, _, _):
            [type?.rawValue ?? "NOTIFICATION", subtype?.rawValue].compactMap { $0 }.joined(separator: "/")
        case .transaction: "transaction"
        case .renewalInfo: "renewal_info"
        case .pendingPurchase: "pending_purchase"
        case .appTrialStarted: "app_trial_started"
        case .usage(let record): "usage/\(record.feature)"
        case .grant(let grant): "grant/\(grant.entitlementID)"
        case .grantRevoked: "grant_revoked"
        case .override: "override"
        case .overrideRemoved: "override_removed"
        case .purchaseTransferred(_, let from, let to, _): "purchase_transferred/\(from ?? "-")→\(to)"
        case .timeZoneSet: "time_zone_set"
        case .openAccessSet(let window): window == nil ? "open_access_off" : "open_access_on"
        case .householdJoined(let household, _): "household_joined/\(household)"
        case .householdLeft(let household, _): "household_left/\(household)"
        }
    }
}
