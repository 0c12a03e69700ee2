import Foundation

/// A state built by folding ledger events one at a time: a subscriber's facts, their analytics
/// history. Its `apply` must give the same state for the same events in any order, so that a
/// projection can be updated as events arrive.
public protocol LedgerFolding {
    mutating func apply(_ event: LedgerEvent)
}

/// The one way the ledger is read as a sequence: every reader (the projection, analytics, the
/// dashboard's timeline) folds events in Apple's order, each idempotency key once, so duplicates,
/// reordering and replays give the same answer everywhere.
public enum LedgerFold {
    /// `events` in Apple's order (``LedgerEvent/precedes(_:_:)``), each idempotency key once.
    public static func ordered(_ events: [LedgerEvent]) -> [LedgerEvent] {
        order(events).map { events[$0] }
    }

    /// `initial` with `events` applied in Apple's order, each idempotency key once. The events are
    /// applied where they are, not copied into an ordered array first (an event is a large value).
    public static func fold<State: LedgerFolding>(_ events: [LedgerEvent], into initial: State) -> State {
        var state = initial
        for index in order(events) { state.apply(events[index]) }
        return state
    }

    /// The positions of `events` in Apple's order, each idempotency key's first.
    ///
    /// Each event's dates are read once and the positions sorted, not the events: reading a purchase
    /// date copies the transaction out of the payload, and moving an event copies all of it.
    private static func order(_ events: [LedgerEvent]) -> [Int] {
        let keys = events.map(LedgerEvent.OrderKey.init)
        let sorted = events.indices.sorted { keys[$0] < keys[$1] }
        var seen = Set<String>(minimumCapacity: events.count)
        return sorted.filter { seen.insert(events[$0].idempotencyKey).inserted }
    }
}
