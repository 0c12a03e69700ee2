import EntitleCore
import EntitleStorage
import Foundation
import Logging

/// The registry of what subscribers count against numeric limits — paired child devices under
/// `childDevices` — on the ledger (docs/lifecycle.md, "Registered items").
///
/// Registering checks the limit inside the append's transaction, so two devices registered at once
/// (from any number of server instances) can't both take the last place. Which items a lower limit
/// pauses is not stored: every answer computes it from the registry and the access of the moment
/// (``ItemStatus``), so a downgrade or a lapse pauses the same items everywhere and an upgrade resumes them.
public struct ItemService: SubscriberReading, EventAppending {
    let context: AppContext
    let events: any EventLog
    let projections: any ProjectionStore
    let identity: any IdentityStore

    init(context: AppContext, events: any EventLog, projections: any ProjectionStore, identity: any IdentityStore) {
        self.context = context
        self.events = events
        self.projections = projections
        self.identity = identity
    }

    /// The outcome of a registration: the item when it is registered (now or before), and the access
    /// answer for the limit at the count it asked for (its reason and paywall when refused).
    public struct Registration: Sendable {
        public var registered: Bool
        public var access: AccessAnswer
        public var answer: SubscriberAnswer
    }

    /// Registers `itemID` under `limit`, named `name`. An item already registered stays as it is (a new
    /// name renames it) and is answered as registered; a new one is refused when the subscriber's access
    /// doesn't allow one more (every registered item counts, paused ones too).
    public func register(appUserID: AppUserID, limit: String, itemID: String, name: String?) async throws(ServiceError) -> Registration {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        try check(limit: limit, itemID: itemID, name: name)
        let context = try await resolutionContext(appUserID)
        let at = context.at
        let registered = context.facts.registeredItems(limit: limit)
        if let existing = registered.first(where: { $0.id == itemID }) {
            var current = context
            if let name, name != existing.name {
                _ = try await change(appUserID, ItemChange(limit: limit, itemID: itemID, action: .rename, name: name, at: at))
                current = try await resolutionContext(appUserID)
            }
            let answer = self.answer(current)
            return Registration(registered: true, access: AccessAnswer(decision: answer.access.access(limit, usage: registered.count), at: at), answer: answer)
        }
        let event = Self.event(appUserID, ItemChange(limit: limit, itemID: itemID, action: .register, name: name, at: at))
        let outcome = try await measuredAppend(event) { () async throws(StorageError) in
            try await self.events.append(event) { facts in
                let items = facts.registeredItems(limit: limit)
                return items.contains { $0.id == itemID } || context.resolve(facts).access(limit, usage: items.count + 1).isAllowed
            }
        }
        let after = try await resolutionContext(appUserID)
        let answer = self.answer(after)
        let count = after.facts.registeredItems(limit: limit).count
        let refused = outcome == .refused
        let decision = answer.access.access(limit, usage: refused ? count + 1 : count)
        if refused {
            logger.info("item refused by its limit", metadata: ["item.limit": "\(limit)", "item.count": "\(count)"])
        }
        return Registration(registered: !refused, access: AccessAnswer(decision: decision, at: after.at), answer: answer)
    }

    /// Renames a registered item.
    public func rename(appUserID: AppUserID, limit: String, itemID: String, name: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        try check(limit: limit, itemID: itemID, name: name)
        let context = try await resolutionContext(appUserID)
        guard let existing = context.facts.registeredItems(limit: limit).first(where: { $0.id == itemID }) else {
            throw ServiceError(.itemNotFound, "no item \(itemID) is registered under \(limit)")
        }
        if existing.name != name {
            _ = try await change(appUserID, ItemChange(limit: limit, itemID: itemID, action: .rename, name: name, at: context.at))
        }
        return try await subscriber(appUserID)
    }

    /// Removes a registered item: its place under the limit is free again (a paused item may resume).
    /// Removing an item that isn't registered is refused, so a typo doesn't pass for a removal.
    public func remove(appUserID: AppUserID, limit: String, itemID: String) async throws(ServiceError) -> SubscriberAnswer {
        try Self.validate(appUserID)
        let appUserID = try await canonical(appUserID)
        try check(limit: limit, itemID: itemID, name: nil)
        let context = try await resolutionContext(appUserID)
        guard context.facts.registeredItems(limit: limit).contains(where: { $0.id == itemID }) else {
            throw ServiceError(.itemNotFound, "no item \(itemID) is registered under \(limit)")
        }
        _ = try await change(appUserID, ItemChange(limit: limit, itemID: itemID, action: .remove, at: context.at))
        return try await subscriber(appUserID)
    }

    private func check(limit: String, itemID: String, name: String?) throws(ServiceError) {
        guard catalog.limits.contains(limit) else {
            throw ServiceError(.unknownLimit, "\(limit) is not a limit of \(bundleID)\(catalog.limits.isEmpty ? "" : ": \(catalog.limits.joined(separator: ", "))")")
        }
        if let problem = ItemChange.problem(itemID: itemID) { throw ServiceError(.invalidRequest, problem) }
        if let name, let problem = ItemChange.problem(name: name) { throw ServiceError(.invalidRequest, problem) }
    }

    private func change(_ appUserID: AppUserID, _ change: ItemChange) async throws(ServiceError) -> AppendOutcome {
        try await append(Self.event(appUserID, change))
    }

    private static func event(_ appUserID: AppUserID, _ change: ItemChange) -> LedgerEvent {
        let stamp = change.at.millisecondsSince1970(rounding: .down)
        return LedgerEvent(
            id: UUID(), appUserID: appUserID, source: .items,
            idempotencyKey: "item-\(change.action.rawValue):\(appUserID):\(change.limit):\(change.itemID):\(stamp):\(change.name ?? "")",
            signedDate: change.at, receivedAt: change.at, payload: .item(change))
    }

    private func subscriber(_ appUserID: AppUserID) async throws(ServiceError) -> SubscriberAnswer {
        answer(try await resolutionContext(appUserID))
    }

    /// The subscriber's answer in `context`, resolved once.
    private func answer(_ context: ResolutionContext) -> SubscriberAnswer {
        SubscriberAnswer(facts: context.facts, access: context.resolve(), appAccountToken: accountTokens.token(for: context.facts.appUserID))
    }
}
