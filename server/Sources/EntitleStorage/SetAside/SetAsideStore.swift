import Foundation

/// The events background consumers set aside, per app: a record an operator reads, kept beside the
/// ledger, which itself stays as it was (an event is immutable).
public protocol SetAsideStore: Sendable {
    /// Records `events`; one already recorded for the same consumer keeps its first record. Returns
    /// how many were new.
    @discardableResult
    func setAside(_ events: [SetAsideEvent]) async throws(StorageError) -> Int

    /// The events set aside, newest first, at most `limit`.
    func setAsideEvents(limit: Int) async throws(StorageError) -> [SetAsideEvent]
}
