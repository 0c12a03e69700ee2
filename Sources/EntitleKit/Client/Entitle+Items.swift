import EntitleAPI
import EntitleCore
import EntitleWire
import Foundation

extension Entitle {
    /// Registers something the user counts against `limit` (pairs a child device under `childDevices`).
    /// The server checks the limit: the answer says whether the item is registered, and when it isn't,
    /// the limit's access answer carries the reason (`limit_exceeded` with its maximum) and the paywall to
    /// show (`upgrade`). Registering an item again is answered as registered. The customer info is
    /// refreshed after it, so ``items(limit:fetchPolicy:)`` shows the item.
    /// - Parameters:
    ///   - id: the app's ID of the item: 1 to 128 characters, no spaces, control characters or `/`.
    ///   - name: the name the app shows: 1 to 100 characters.
    ///   - limit: the catalog's limit the item counts against.
    /// - Throws: ``EntitleError`` `request.invalid` for an ID or name no server takes, before any request;
    ///   the server's code (`items.unknownLimit`) when it refuses the request.
    public func registerItem(_ id: String, name: String? = nil, limit: String) async throws(EntitleError) -> ItemRegistration {
        try Self.check(id: id, name: name)
        let answer: ItemRegistrationResponse
        do {
            answer = try await api.registerItem(appUserID, limit: limit, id: id, name: name)
        } catch {
            throw Self.error(error)
        }
        _ = try? await customerInfo(fetchPolicy: .fetchCurrent)
        return ItemRegistration(answer)
    }

    /// Renames a registered item.
    /// - Parameters:
    ///   - id: the item's ID.
    ///   - name: its new name: 1 to 100 characters.
    ///   - limit: the limit it counts against.
    /// - Returns: every registered item after it.
    /// - Throws: ``EntitleError`` with the server's `items.notFound` when no such item is registered.
    @discardableResult
    public func renameItem(_ id: String, to name: String, limit: String) async throws(EntitleError) -> [Item] {
        try Self.check(id: id, name: name)
        do {
            let items = try await api.renameItem(appUserID, limit: limit, id: id, name: name).items
            _ = try? await customerInfo(fetchPolicy: .fetchCurrent)
            return items.map(Item.init)
        } catch {
            throw Self.error(error)
        }
    }

    /// Removes a registered item: its place under the limit is free again, and a paused item may resume.
    /// - Parameters:
    ///   - id: the item's ID.
    ///   - limit: the limit it counts against.
    /// - Returns: every registered item after it.
    /// - Throws: ``EntitleError`` with the server's `items.notFound` when no such item is registered.
    @discardableResult
    public func removeItem(_ id: String, limit: String) async throws(EntitleError) -> [Item] {
        try Self.check(id: id, name: nil)
        do {
            let items = try await api.removeItem(appUserID, limit: limit, id: id).items
            _ = try? await customerInfo(fetchPolicy: .fetchCurrent)
            return items.map(Item.init)
        } catch {
            throw Self.error(error)
        }
    }

    /// The user's registered items under `limit`, oldest first, each with whether the limit pauses it now.
    ///
    /// From the customer info (fetched, or cached when offline); which items are paused is decided by
    /// EntitleCore's `AccessGate.pausedItems` — the rule the server's answers follow — on the gate the
    /// server signed for the period that contains now, so items a lapse has paused since the answer show
    /// paused offline too.
    /// - Parameters:
    ///   - limit: the catalog's limit.
    ///   - fetchPolicy: where the customer info may come from.
    public func items(limit: String, fetchPolicy: FetchPolicy = .cachedOrFetched) async throws(EntitleError) -> [Item] {
        let info = try await customerInfo(fetchPolicy: fetchPolicy)
        let registered = info.items.filter { $0.limit == limit }
        let now = configuration.now()
        guard let gate = info.gate(at: now) else {
            return registered
        }
        let paused = Set(gate.pausedItems(forLimit: limit, items: registered.map { LimitedItem(id: $0.id, addedAt: $0.addedAt) }).map(\.id))
        return registered.map { item in
            var item = item
            item.isPaused = paused.contains(item.id)
            return item
        }
    }

    private static func check(id: String, name: String?) throws(EntitleError) {
        if let problem = ItemChange.problem(itemID: id) { throw EntitleError(.invalidRequest, problem) }
        if let name, let problem = ItemChange.problem(name: name) { throw EntitleError(.invalidRequest, problem) }
    }
}
