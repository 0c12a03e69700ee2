@testable import EntitleStorage
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import NIOConcurrencyHelpers
import PostgresNIO
import Testing

@Suite("PostgresPool: once PostgreSQL looks away, a statement waits for a pooled connection at most its patience")
struct PostgresPoolTests {
    /// A server nothing listens for: every connection attempt is refused at once, and PostgresNIO's
    /// pool keeps trying, holding what waits until its circuit breaker trips after 60 s.
    static let unreachable = PostgresClient.Configuration(
        host: "127.0.0.1", port: 1, username: "postgres", password: nil, database: "postgres", tls: .disable)

    /// A clock whose sleeps last until the test opens it (or their task is cancelled): the patience
    /// passes when the test says so.
    final class GateClock: Clock, Sendable {
        private let state = NIOLockedValueBox((open: false, woken: 0, next: 0, sleepers: [Int: CheckedContinuation<Void, any Error>]()))

        var now: ContinuousClock.Instant { .now }
        var minimumResolution: Duration { .zero }
        /// How many sleeps have returned.
        var woken: Int { state.withLockedValue { $0.woken } }

        func open() {
            let sleepers = state.withLockedValue { state in
                state.open = true
                defer { state.sleepers = [:] }
                return state.sleepers.values
            }
            for sleeper in sleepers { sleeper.resume() }
        }

        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            let id = state.withLockedValue { state in
                state.next += 1
                return state.next
            }
            try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (sleeper: CheckedContinuation<Void, any Error>) in
                    let now: Result<Void, any Error>? = state.withLockedValue { state in
                        if Task.isCancelled { return .failure(CancellationError()) }
                        if state.open { return .success(()) }
                        state.sleepers[id] = sleeper
                        return nil
                    }
                    if let now { sleeper.resume(with: now) }
                }
            } onCancel: {
                state.withLockedValue { $0.sleepers.removeValue(forKey: id) }?.resume(throwing: CancellationError())
            }
            state.withLockedValue { $0.woken += 1 }
        }
    }

    /// A clock whose time moves only when the test moves it, and whose sleeps last until their task is
    /// cancelled.
    final class ManualClock: Clock, Sendable {
        private let start = ContinuousClock.now
        private let state = NIOLockedValueBox((elapsed: Duration.zero, sleeping: 0))

        var now: ContinuousClock.Instant { start + state.withLockedValue { $0.elapsed } }
        var minimumResolution: Duration { .zero }
        /// How many sleeps have begun.
        var sleeping: Int { state.withLockedValue { $0.sleeping } }

        func advance(by duration: Duration) { state.withLockedValue { $0.elapsed += duration } }

        func sleep(until deadline: ContinuousClock.Instant, tolerance: Duration?) async throws {
            state.withLockedValue { $0.sleeping += 1 }
            let (never, _) = AsyncStream<Void>.makeStream()
            for await _ in never {}
            throw CancellationError()
        }
    }

    /// Waits (at most 10 s) until `condition` holds.
    static func until(_ condition: () -> Bool) async throws {
        for _ in 0..<2_000 where !condition() { try await Task.sleep(for: .milliseconds(5)) }
    }

    /// `body` with a client of the test cluster that opens at most one connection.
    static func withOneConnection(_ body: (PostgresClient) async throws -> Void) async throws {
        var configuration = try StorageEngine.testClusterConfiguration()
        configuration.options.maximumConnections = 1
        try await StorageEngine.withClient(configuration, body)
    }

    /// A statement in `pool` that holds its connection, once it has it, until `release` is finished.
    static func holder<C>(
        _ pool: PostgresPool<C>
    ) -> (task: Task<Int, any Error>, held: AsyncStream<Void>, release: AsyncStream<Void>.Continuation) {
        let (held, holding) = AsyncStream<Void>.makeStream()
        let (releasing, release) = AsyncStream<Void>.makeStream()
        let task = Task {
            try await pool.withConnection { connection in
                holding.yield()
                for await _ in releasing {}
                return try await Self.answer(connection)
            }
        }
        return (task, held, release)
    }

    static func answer(_ connection: PostgresConnection) async throws -> Int {
        var answer = 0
        for try await value in try await connection.query("SELECT 41 + 1", logger: Logger(label: "entitle.tests.pool")).decode(Int.self) {
            answer = value
        }
        return answer
    }

    /// `body` while `first` waits in `pool` for a connection that doesn't come, for longer than the
    /// pool's suspicion; `first` is cancelled afterwards, and must have failed.
    static func whileOneWaits(
        _ pool: PostgresPool<ContinuousClock>, _ first: @escaping @Sendable () async throws -> Void, _ body: () async throws -> Void
    ) async throws {
        let waiting = Task { try await first() }
        for _ in 0..<2_000 where pool.leasesWaiting == 0 { try await Task.sleep(for: .milliseconds(5)) }
        try #require(pool.leasesWaiting == 1, "the first statement never waited for a connection")
        try await Task.sleep(for: pool.suspicion * 2)
        try await body()
        waiting.cancel()
        await #expect(throws: (any Error).self) { try await waiting.value }
    }

    @Test("with PostgreSQL unreachable, statements after one that waited past the suspicion fail once their patience has passed, not a minute later")
    func unreachableServer() async throws {
        try await StorageEngine.withClient(Self.unreachable) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(200), suspicion: .milliseconds(50))
            try await Self.whileOneWaits(pool, { _ = try await pool.withConnection { try await Self.answer($0) } }) {
                for _ in 0..<3 {
                    await #expect(throws: PostgresPool<ContinuousClock>.NoConnection.self) {
                        _ = try await pool.withConnection { try await Self.answer($0) }
                    }
                }
            }
        }
    }

    @Test("with PostgreSQL unreachable, a ledger's writes and its reads off the event loops fail storage.unavailable saying how long they waited")
    func unreachableLedger() async throws {
        try await StorageEngine.withClient(Self.unreachable) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(200), suspicion: .milliseconds(50))
            let store = SQLLedgerStore(engine: PostgresEngine(pool: pool, logger: Logger(label: "entitle.tests.pool")), writePath: RoutineWritePath(), app: "com.example")
            let purchase = AppleFacts(bundleID: store.app.rawValue).subscription(
                "com.example.monthly", original: "O1", id: "T1", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))
            try await Self.whileOneWaits(pool, { _ = try await store.projection(appUserID: "first") }) {
                let write = await #expect(throws: StorageError.self) {
                    _ = try await store.append(LedgerEvents.appTransaction(1, appUserID: "reader", purchase))
                }
                #expect(write?.code == .unavailable)
                #expect(write?.message.contains("no PostgreSQL connection came within") == true)
                let read = await #expect(throws: StorageError.self) { _ = try await store.projection(appUserID: "reader") }
                #expect(read?.code == .unavailable)
            }
        }
    }

    @Test("PostgreSQL: a lease waiting past the suspicion while connections are still handed out is a queue, and the next statement leases directly; with none handed out for as long, it leases with patience")
    func busyIsNotAway() async throws {
        try await Self.withOneConnection { client in
            let clock = ManualClock()
            let pool = PostgresPool(client: client, patience: .seconds(10), suspicion: .seconds(1), clock: clock)
            let first = Self.holder(pool)
            for await _ in first.held { break }
            let second = Self.holder(pool)
            try await Self.until { pool.leasesWaiting == 1 }
            clock.advance(by: .milliseconds(500))
            let third = Task { try await pool.withConnection { try await Self.answer($0) } }
            try await Self.until { pool.leasesWaiting == 2 }
            try #require(pool.leasesWaiting == 2)

            // The connection handed out 2 s ago, the oldest lease waiting for 2 s: PostgreSQL looks away.
            clock.advance(by: .milliseconds(1_500))
            let patient = Task { try await pool.withConnection { try await Self.answer($0) } }
            try await Self.until { clock.sleeping == 1 }
            #expect(clock.sleeping == 1)
            #expect(pool.leasesWaiting == 2)

            // The connection handed on now, the oldest lease still waiting for 1.5 s: a queue, not an outage.
            first.release.finish()
            for await _ in second.held { break }
            let queued = Task { try await pool.withConnection { try await Self.answer($0) } }
            try await Self.until { pool.leasesWaiting == 2 || clock.sleeping > 1 }
            #expect(pool.leasesWaiting == 2)
            #expect(clock.sleeping == 1)

            second.release.finish()
            for task in [first.task, second.task, third, patient, queued] {
                let answer = try await task.value
                #expect(answer == 42)
            }
        }
    }

    @Test("PostgreSQL: work leased with patience runs to its end once it has its connection, though the patience passes while it runs")
    func workNotCutShort() async throws {
        try await StorageEngine.withClient(try StorageEngine.testClusterConfiguration()) { client in
            let clock = GateClock()
            let pool = PostgresPool(client: client, patience: .seconds(1), clock: clock)
            let answer = try await pool.withPatience { connection in
                clock.open()
                for _ in 0..<2_000 where clock.woken == 0 { try await Task.sleep(for: .milliseconds(5)) }
                return try await Self.answer(connection)
            }
            #expect(clock.woken == 1)
            #expect(answer == 42)
        }
    }

    @Test("PostgreSQL: with every connection in use, a statement leased with patience fails once it has passed; the connection handed back serves the next")
    func busyPool() async throws {
        try await Self.withOneConnection { client in
            let clock = GateClock()
            let pool = PostgresPool(client: client, patience: .seconds(1), clock: clock)
            let holder = Self.holder(pool)
            for await _ in holder.held { break }
            let patient = Task { try await pool.withPatience { try await Self.answer($0) } }
            clock.open()
            await #expect(throws: PostgresPool<GateClock>.NoConnection.self) { _ = try await patient.value }
            holder.release.finish()
            let first = try await holder.task.value
            #expect(first == 42)
            let next = try await pool.withConnection { try await Self.answer($0) }
            #expect(next == 42)
        }
    }
}
