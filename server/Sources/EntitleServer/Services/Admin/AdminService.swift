import AppStoreModels
import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// Support and admin work on subscribers: grants, overrides, open access, households, the timeline,
/// look-ups and search.
public struct AdminService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore
    /// The subscriber each change answers with.
    let subscribers: SubscriberService

    /// Grants an entitlement for a period, as a ledger event.
    public func grant(
        appUserID: AppUserID, entitlementID: String, startsAt: Date?, endsAt: Date?, reason: String?
    ) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        try Self.checkInstant(startsAt, "startsAt")
        try Self.checkInstant(endsAt, "endsAt")
        let appUserID = try await canonical(appUserID)
        guard catalog.entitlement(entitlementID) != nil else {
            throw ServiceError(.invalidRequest, "\(entitlementID) is not an entitlement of this app")
        }
        let at = now()
        let grant = EntitlementGrant(
            id: UUID().uuidString.lowercased(), entitlementID: entitlementID, startsAt: startsAt ?? at, endsAt: endsAt, reason: reason)
        if let endsAt = grant.endsAt, endsAt <= grant.startsAt {
            throw ServiceError(.invalidRequest, "endsAt must be after startsAt")
        }
        try await appendAdmin(appUserID, .grant(grant), at: at)
        return try await subscribers.subscriber(appUserID: appUserID)
    }

    public func revokeGrant(appUserID: AppUserID, grantID: String) async throws(ServiceError) -> SubscriberAnswer {
        let at = now()
        try await appendAdmin(appUserID, .grantRevoked(grantID: grantID, at: at), at: at)
        return try await subscribers.subscriber(appUserID: appUserID)
    }

    /// Adds `days` to the subscriber's app-managed trial (support): its end, grace and lockout move that
    /// much later, a locked-out subscriber gets the trial back for what remains. Refused when the app has
    /// no app-managed trial, the subscriber never started it, a store purchase superseded it, or the
    /// days are out of 1 to 366 (together, too).
    public func extendAppTrial(appUserID: AppUserID, days: Int, reason: String?) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        guard catalog.appTrial != nil else { throw ServiceError(.invalidRequest, "this app has no app-managed trial (appTrial in entitlements.json)") }
        guard (1...AppTrialExtension.longest).contains(days) else {
            throw ServiceError(.invalidRequest, "days is a whole number from 1 to \(AppTrialExtension.longest)")
        }
        if let reason, reason.utf8.count > 500 { throw ServiceError(.invalidRequest, "reason is at most 500 bytes") }
        let appUserID = try await canonical(appUserID)
        let at = now()
        let current = try await subscribers.subscriber(appUserID: appUserID)
        switch current.access.appTrial {
        case .notStarted: throw ServiceError(.invalidRequest, "\(appUserID) has not started the app-managed trial")
        case .superseded: throw ServiceError(.invalidRequest, "\(appUserID) bought: a purchase superseded the app-managed trial")
        case .active, .grace, .lockout: break
        }
        guard current.facts.appTrialExtraDays + days <= AppTrialExtension.longest else {
            throw ServiceError(.invalidRequest, "a subscriber's extensions add up to \(AppTrialExtension.longest) days at most")
        }
        let extension_ = AppTrialExtension(id: UUID().uuidString.lowercased(), days: days, reason: reason, at: at)
        try await appendAdmin(appUserID, .appTrialExtended(extension_), at: at)
        logger.info("app trial extended", metadata: ["subscriber.days_added": "\(days)"])
        return try await subscribers.subscriber(appUserID: appUserID)
    }

    /// Lifts every limit and quota for the subscriber until `endsAt` (or removal).
    public func addOverride(appUserID: AppUserID, endsAt: Date?, reason: String?) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        try Self.checkInstant(endsAt, "endsAt")
        let appUserID = try await canonical(appUserID)
        let at = now()
        if let endsAt, endsAt <= at { throw ServiceError(.invalidRequest, "endsAt must be in the future") }
        let override = AccessOverride(id: UUID().uuidString.lowercased(), startsAt: at, endsAt: endsAt, reason: reason)
        try await appendAdmin(appUserID, .override(override), at: at)
        return try await subscribers.subscriber(appUserID: appUserID)
    }

    public func removeOverride(appUserID: AppUserID, overrideID: String) async throws(ServiceError) -> SubscriberAnswer {
        let at = now()
        try await appendAdmin(appUserID, .overrideRemoved(overrideID: overrideID, at: at), at: at)
        return try await subscribers.subscriber(appUserID: appUserID)
    }

    /// The global open-access window in force (or scheduled), if any.
    public func openAccess() async throws(ServiceError) -> OpenAccessWindow? {
        try await currentOpenAccess()
    }

    /// Turns on "grant access to everyone until `endsAt`" (seed 004's rollback plan), for the listed
    /// entitlements or all of them; or turns it off with `nil`.
    public func setOpenAccess(endsAt: Date?, entitlementIDs: [String], reason: String?) async throws(ServiceError) -> OpenAccessWindow? {
        try Self.checkInstant(endsAt, "endsAt")
        let at = now()
        var window: OpenAccessWindow?
        if let endsAt {
            guard endsAt > at else { throw ServiceError(.invalidRequest, "endsAt must be in the future") }
            for id in entitlementIDs where catalog.entitlement(id) == nil {
                throw ServiceError(.invalidRequest, "\(id) is not an entitlement of this app")
            }
            window = OpenAccessWindow(startsAt: at, endsAt: endsAt, entitlementIDs: entitlementIDs, reason: reason)
        }
        let id = UUID()
        do {
            _ = try await events.append(LedgerEvent(
                id: id, appUserID: nil, source: .openAccess, idempotencyKey: "open-access:\(id.uuidString)", signedDate: at, receivedAt: at,
                payload: .openAccessSet(window)))
        } catch {
            throw ServiceError(error)
        }
        logger.warning("open access changed", metadata: ["open_access.ends_at": "\(endsAt.map { "\($0)" } ?? "off")"])
        return window
    }

    /// Adds `memberID` to the household `householdID`: the member shares the household's entitlements.
    public func addMember(householdID: AppUserID, memberID: AppUserID) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(householdID)
        guard householdID != memberID else { throw ServiceError(.invalidRequest, "a household can't be its own member") }
        let at = now()
        try await appendAdmin(memberID, .householdJoined(householdID: householdID, at: at), at: at)
        return try await subscribers.subscriber(appUserID: memberID)
    }

    public func removeMember(householdID: AppUserID, memberID: AppUserID) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(householdID)
        let at = now()
        try await appendAdmin(memberID, .householdLeft(householdID: householdID, at: at), at: at)
        return try await subscribers.subscriber(appUserID: memberID)
    }

    /// The subscriber's events in the order they were stored.
    public func timeline(appUserID: AppUserID) async throws(ServiceError) -> [LedgerEvent] {
        try Self.validate(appUserID)
        do {
            return try await events.events(appUserID: appUserID)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Who owns a purchase, and how many notifications wait for its link.
    public func lookup(originalTransactionID: OriginalTransactionID) async throws(ServiceError) -> PurchaseLookup {
        do {
            return PurchaseLookup(
                originalTransactionID: originalTransactionID, owner: try await identity.owner(originalTransactionID: originalTransactionID),
                heldEvents: try await events.heldEvents(originalTransactionID: originalTransactionID).count)
        } catch {
            throw ServiceError(error)
        }
    }

    /// Support search: subscribers whose ID starts with `query` (at most `limit`), and the owner of
    /// the purchase whose original transaction ID `query` is.
    public func searchSubscribers(_ query: String, limit: Int = 50) async throws(ServiceError) -> SubscriberSearch {
        do {
            let owner = try await identity.owner(originalTransactionID: OriginalTransactionID(query))
            let matches = try await projections.subscriberIDs(startingWith: query, limit: limit)
            return SubscriberSearch(query: query, matches: matches, purchaseOwner: owner)
        } catch {
            throw ServiceError(error)
        }
    }

    /// The most recently updated subscribers that `filter` admits, latest first: up to `limit`, from
    /// the latest `scanned` subscribers at most (a filter few match stops there rather than read
    /// the whole ledger).
    public func recentSubscribers(_ filter: SubscriberFilter, limit: Int = 50, scanned: Int = 2_000) async throws(ServiceError) -> [SubscriberListing] {
        let at = now()
        var listed: [SubscriberListing] = []
        var cursor: RecentSubscriber.Cursor?
        var read = 0
        do {
            while listed.count < limit, read < scanned {
                let page = try await projections.recentSubscribers(limit: min(200, scanned - read), after: cursor)
                for subscriber in page {
                    let access = resolver.resolve(subscriber.facts, at: at)
                    let purchases = access.subscriptions.map { SubscriberListing.Purchase(productID: $0.productID, state: $0.state) }
                    guard filter.admits(purchases), listed.count < limit else { continue }
                    listed.append(SubscriberListing(
                        app: bundleID, appUserID: subscriber.appUserID, updatedAt: subscriber.updatedAt, purchases: purchases,
                        activeEntitlements: access.activeEntitlements.map(\.id)))
                }
                read += page.count
                guard page.count == 200, let last = page.last else { break }
                cursor = last.cursor
            }
        } catch {
            throw ServiceError(error)
        }
        return listed
    }

    private func appendAdmin(_ appUserID: AppUserID, _ payload: LedgerEventPayload, at: Date) async throws(ServiceError) {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        let id = UUID()
        do {
            _ = try await events.append(LedgerEvent(
                id: id, appUserID: appUserID, source: .admin, idempotencyKey: "admin:\(id.uuidString)", signedDate: at, receivedAt: at, payload: payload))
        } catch {
            throw ServiceError(error)
        }
    }
}
