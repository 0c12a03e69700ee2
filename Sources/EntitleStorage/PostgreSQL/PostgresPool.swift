import NIOConcurrencyHelpers
import PostgresNIO

/// PostgresNIO's pool, each connection waited for at most `patience`. While the pool can't open a
/// connection (PostgreSQL restarting, stopped, unreachable) it keeps a request waiting until its
/// circuit breaker trips, 60 s after the first failure; here a statement that gets no connection
/// within `patience` fails ``StorageError/Code/unavailable`` instead, so a write answers 503 in
/// seconds as a read does. Work that got its connection is never cut short by the wait.
struct PostgresPool: Sendable {
    /// Thrown when no connection came within the patience.
    struct NoConnection: Error, CustomStringConvertible {
        let patience: Duration
        var description: String { "no PostgreSQL connection came within \(patience)" }
    }

    let client: PostgresClient
    let patience: Duration
    private let clock: any Clock<Duration> & Sendable

    init(client: PostgresClient, patience: Duration, clock: some Clock<Duration> & Sendable = ContinuousClock()) {
        self.client = client
        self.patience = patience
        self.clock = clock
    }

    private enum Phase {
        case waiting
        case leased
        case gaveUp
    }

    /// `work` on a pooled connection; ``NoConnection`` when none came within the patience.
    func withConnection<T: Sendable>(_ work: @escaping @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        let phase = NIOLockedValueBox(Phase.waiting)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection -> T? in
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
