import NIOConcurrencyHelpers
import PostgresNIO

/// PostgresNIO's pool, with a bound on the wait for a connection once PostgreSQL looks away.
///
/// While the pool can't open a connection (PostgreSQL restarting, stopped, unreachable) it keeps each
/// request waiting until its circuit breaker trips, 60 s after the first failed attempt; only
/// cancelling the waiting task ends the wait sooner. Racing every statement against a timer in a
/// child task would bound it, but the hand-off to the child costs about as much as the statement
/// (docs/benchmarks.md). So a statement leases directly while the pool answers, and once a lease has
/// been waited for longer than `suspicion` with no connection handed out for as long, the statements
/// that come after it wait at most `patience` (in a child task, raced against the clock), then fail
/// ``StorageError/Code/unavailable``. A pool that keeps handing out connections is busy, not away: its
/// queue, however long, drains without the child tasks' cost (which, paid under an overload, would
/// keep it from draining). The ones already waiting when PostgreSQL went away wait for it, or for the
/// pool's breaker. Work that got its connection is never cut short by the wait.
struct PostgresPool<C: Clock<Duration>>: Sendable where C: Sendable {
    /// Thrown when no connection came within the patience.
    struct NoConnection: Error, CustomStringConvertible {
        let patience: Duration
        var description: String { "no PostgreSQL connection came within \(patience)" }
    }

    let client: PostgresClient
    /// How long a statement waits for a connection once PostgreSQL looks away.
    let patience: Duration
    /// A lease waited for longer than this, with no connection handed out for as long, says
    /// PostgreSQL looks away.
    let suspicion: Duration
    private let clock: C
    /// When each direct lease still waiting began, by ticket, and when a connection was last handed out.
    private let waiting = NIOLockedValueBox(Waiting())

    private struct Waiting {
        var next = 0
        var since: [Int: C.Instant] = [:]
        var lastHandedOut: C.Instant?

        /// Whether PostgreSQL looks away at `now`: a lease has waited longer than `suspicion`, and
        /// no connection was handed out for as long.
        func looksAway(at now: C.Instant, suspicion: Duration) -> Bool {
            guard let oldest = since.values.min(), oldest.duration(to: now) > suspicion else { return false }
            guard let lastHandedOut else { return true }
            return lastHandedOut.duration(to: now) > suspicion
        }
    }

    init(client: PostgresClient, patience: Duration, suspicion: Duration = .seconds(1), clock: C) {
        self.client = client
        self.patience = patience
        self.suspicion = suspicion
        self.clock = clock
    }

    /// How many direct leases are waiting for a connection.
    var leasesWaiting: Int { waiting.withLockedValue { $0.since.count } }

    private enum Phase {
        case waiting
        case leased
        case gaveUp
    }

    /// `work` on a pooled connection; ``NoConnection`` when PostgreSQL looks away and none came within
    /// the patience.
    func withConnection<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let now = clock.now
        let suspicion = suspicion
        let ticket: Int? = waiting.withLockedValue { waiting in
            if waiting.looksAway(at: now, suspicion: suspicion) { return nil }
            waiting.next += 1
            waiting.since[waiting.next] = now
            return waiting.next
        }
        guard let ticket else { return try await withPatience(work) }
        defer { waiting.withLockedValue { _ = $0.since.removeValue(forKey: ticket) } }
        return try await client.withConnection { connection in
            handedOut(ticket: ticket)
            return try await work(connection)
        }
    }

    /// Notes that a connection was handed out now, to the direct lease `ticket` if it is one.
    private func handedOut(ticket: Int? = nil) {
        waiting.withLockedValue { waiting in
            if let ticket { waiting.since.removeValue(forKey: ticket) }
            waiting.lastHandedOut = clock.now
        }
    }

    /// `work` on a pooled connection leased in a child task, which is cancelled when none came within
    /// the patience.
    func withPatience<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let phase = NIOLockedValueBox(Phase.waiting)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection -> T? in
                    handedOut()
                    // A connection that comes after the wait gave up goes back unused.
                    guard phase.withLockedValue({ Self.move(&$0, to: .leased) }) else { return nil }
                    return try await work(connection)
                }
            }
            group.addTask { [clock, patience] in
                try await clock.sleep(for: patience)
                if phase.withLockedValue({ Self.move(&$0, to: .gaveUp) }) { throw NoConnection(patience: patience) }
                return nil
            }
            while let outcome = try await group.next() {
                if let value = outcome {
                    group.cancelAll()
                    return value
                }
            }
            // Both returned nil: the connection came after the wait gave up, which threw first.
            throw NoConnection(patience: patience)
        }
    }

    /// Leaves `waiting` for `next`; false when the other side left it first.
    private static func move(_ phase: inout Phase, to next: Phase) -> Bool {
        guard case .waiting = phase else { return false }
        phase = next
        return true
    }
}

extension PostgresPool where C == ContinuousClock {
    init(client: PostgresClient, patience: Duration, suspicion: Duration = .seconds(1)) {
        self.init(client: client, patience: patience, suspicion: suspicion, clock: ContinuousClock())
    }
}
