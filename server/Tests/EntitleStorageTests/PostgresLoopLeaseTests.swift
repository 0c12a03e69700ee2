import EntitleCore
@testable import EntitleStorage
import EntitleTestSupport
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import ServiceLifecycle
import Testing

@Suite("PostgresLoopLease: reads on an event loop use that loop's PostgreSQL connections")
struct PostgresLoopLeaseTests {
    static let logger = {
        var logger = Logger(label: "entitle.tests.loop-lease")
        logger.logLevel = .error
        return logger
    }()

    static func testCluster() throws -> PostgresClient.Configuration {
        try StorageEngine.testClusterConfiguration()
    }

    /// A lease over a group of its own, closed and shut down after `body`.
    static func withLease(
        perLoop: Int, configuration: PostgresClient.Configuration? = nil, prepare: (@Sendable (PostgresConnection) async throws -> Void)? = nil,
        _ body: (PostgresLoopLease, MultiThreadedEventLoopGroup) async throws -> Void
    ) async throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 2)
        let lease = PostgresLoopLease(
            configuration: try (configuration ?? testCluster()).connection(tls: .disable), group: group, perLoop: perLoop, prepare: prepare,
            logger: logger)
        do {
            try await body(lease, group)
        } catch {
            await lease.close()
            try await group.shutdownGracefully()
            throw error
        }
        await lease.close()
        try await group.shutdownGracefully()
    }

    /// `body` in a task running on `loop`.
    static func on<T: Sendable>(_ loop: any EventLoop, _ body: () async throws -> T) async rethrows -> T {
        try await withTaskExecutorPreference(EventLoopExecutor(loop: loop), operation: body)
    }

    /// The backend serving the read, and whether its connection lives on `loop`.
    static func backend(_ lease: PostgresLoopLease, loop: any EventLoop, sleep: Double = 0) async throws -> (pid: Int, onLoop: Bool)? {
        try await lease.withCurrentLoopConnection { connection in
            // PostgresNIO never answers a statement written to a closed connection.
            if connection.isClosed { throw ClosedConnectionLeased() }
            let query: PostgresQuery = sleep > 0 ? "SELECT pg_backend_pid() AS pid, pg_sleep(\(sleep)) IS NULL AS slept" : "SELECT pg_backend_pid() AS pid"
            var pid = 0
            for try await row in try await connection.query(query, logger: Self.logger) {
                pid = Int(try row.makeRandomAccess()["pid"].decode(Int32.self))
            }
            return (pid, connection.eventLoop === loop)
        }.map { (pid: $0.0, onLoop: $0.1) }
    }

    struct ClosedConnectionLeased: Error {}

    static func terminate(_ pid: Int) async throws {
        try await StorageEngine.withClient(try testCluster()) { admin in
            _ = try await admin.query("SELECT pg_terminate_backend(\(Int32(pid)))")
        }
    }

    /// Terminates `pid` once it is running a read that sleeps (seen in `pg_stat_activity`).
    static func terminateWhileSleeping(_ pid: Int) async throws {
        try await StorageEngine.withClient(try testCluster()) { admin in
            while true {
                var sleeping = false
                let query: PostgresQuery = "SELECT pid FROM pg_stat_activity WHERE pid = \(Int32(pid)) AND state = 'active' AND query LIKE '%pg_sleep%'"
                for try await _ in try await admin.query(query) { sleeping = true }
                if sleeping { break }
                try await Task.sleep(for: .milliseconds(10))
            }
            _ = try await admin.query("SELECT pg_terminate_backend(\(Int32(pid)))")
        }
    }

    @Test("PostgreSQL: a read whose backend is terminated while it runs runs again on a new connection, and answers")
    func readOutlivesTermination() async throws {
        try await Self.withLease(perLoop: 1) { lease, group in
            let loop = group.next()
            let first = try #require(try await Self.on(loop) { try await Self.backend(lease, loop: loop) })
            async let read = Self.on(loop) { try await Self.backend(lease, loop: loop, sleep: 2) }
            try await Self.terminateWhileSleeping(first.pid)
            let answered = try #require(try await read)
            #expect(answered.pid != first.pid)
            #expect(answered.onLoop)
            #expect(lease.openConnections == 1)
        }
    }

    @Test("PostgreSQL: reads from a task on a loop reuse one connection of that loop; from elsewhere the lease declines")
    func readsOnTheirLoop() async throws {
        try await Self.withLease(perLoop: 2) { lease, group in
            let loop = group.next()
            let reads = try await Self.on(loop) {
                var reads: [(pid: Int, onLoop: Bool)] = []
                for _ in 0..<5 { reads.append(try #require(try await Self.backend(lease, loop: loop))) }
                return reads.map { [$0.pid, $0.onLoop ? 1 : 0] }
            }
            #expect(Set(reads.map { $0[0] }).count == 1)
            #expect(reads.allSatisfy { $0[1] == 1 })
            #expect(lease.openConnections == 1)
            // Not on one of the group's loops: nothing is leased, the body doesn't run.
            #expect(!lease.servesCurrentLoop)
            #expect(try await Self.backend(lease, loop: loop) == nil)
            let elsewhere = MultiThreadedEventLoopGroup.singleton.next()
            #expect(try await Self.on(elsewhere) { try await Self.backend(lease, loop: elsewhere) } == nil)
        }
    }

    @Test("PostgreSQL: concurrent reads on one loop open at most perLoop connections and wait their turn")
    func boundedPerLoop() async throws {
        try await Self.withLease(perLoop: 2) { lease, group in
            let loop = group.next()
            let pids = try await Self.on(loop) {
                try await withThrowingTaskGroup(of: Int.self) { tasks in
                    for _ in 0..<12 { tasks.addTask { try #require(try await Self.backend(lease, loop: loop, sleep: 0.02)).pid } }
                    var pids: [Int] = []
                    for try await pid in tasks { pids.append(pid) }
                    return pids
                }
            }
            #expect(pids.count == 12)
            #expect(Set(pids).count <= 2)
            #expect(lease.openConnections <= 2)
        }
    }

    @Test("PostgreSQL: openAll opens perLoop connections on every loop, and reads on a loop use them, opening none")
    func opensAll() async throws {
        try await Self.withLease(perLoop: 2) { lease, group in
            await lease.openAll()
            #expect(lease.openConnections == 2 * lease.loops)
            #expect(lease.idleConnections == 2 * lease.loops)
            // Open already: a second call opens nothing more.
            await lease.openAll()
            #expect(lease.openConnections == 2 * lease.loops)
            let loop = group.next()
            let reads = try await Self.on(loop) {
                try await withThrowingTaskGroup(of: [Int].self) { tasks in
                    for _ in 0..<2 {
                        tasks.addTask {
                            let read = try #require(try await Self.backend(lease, loop: loop, sleep: 0.1))
                            return [read.pid, read.onLoop ? 1 : 0]
                        }
                    }
                    return try await tasks.reduce(into: []) { $0.append($1) }
                }
            }
            #expect(Set(reads.map { $0[0] }).count == 2)
            #expect(reads.allSatisfy { $0[1] == 1 })
            #expect(lease.openConnections == 2 * lease.loops)
            #expect(lease.idleConnections == 2 * lease.loops)
            // Closed: nothing is opened any more.
            await lease.close()
            await lease.openAll()
            #expect(lease.openConnections == 0)
        }
    }

    @Test("PostgreSQL: a connection openAll can't prepare is closed and not counted; a read opens another")
    func preparationFails() async throws {
        struct Refused: Error {}
        try await Self.withLease(perLoop: 1, prepare: { _ in throw Refused() }) { lease, group in
            await lease.openAll()
            #expect(lease.openConnections == 0)
            let loop = group.next()
            let read = try await Self.on(loop) { try await Self.backend(lease, loop: loop) }
            #expect(read?.onLoop == true)
            #expect(lease.openConnections == 1)
        }
    }

    /// The kept statements prepared on the calling loop's connection: name → plans PostgreSQL made for
    /// their values (custom) and runs on its generic plan.
    static func preparedStatements(_ lease: PostgresLoopLease) async throws -> [String: [Int]] {
        try await lease.withCurrentLoopConnection { connection in
            var prepared: [String: [Int]] = [:]
            let rows = try await connection.query("SELECT name, custom_plans, generic_plans FROM pg_prepared_statements", logger: Self.logger)
            for try await row in rows {
                let (name, custom, generic) = try row.decode((String, Int64, Int64).self)
                prepared[name] = [Int(custom), Int(generic)]
            }
            return prepared
        } ?? [:]
    }

    /// A migrated ledger on a fresh database, opened by `LedgerConnection` with `perLoop` connections
    /// for each loop of the HTTP server's group, its services running during `body`.
    static func withLedger(perLoop: Int, _ body: (LedgerConnection, PostgresLoopLease, [any EventLoop]) async throws -> Void) async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            let loops = Array(MultiThreadedEventLoopGroup.singleton.makeIterator())
            var configuration = configuration
            configuration.options.maximumConnections = 2 * perLoop * loops.count
            let connection = try await LedgerConnection.open(.postgres(configuration), logger: Self.logger)
            let lease = try #require(connection.loopLease)
            #expect(lease.perLoop == perLoop)
            #expect(lease.loops == loops.count)
            try await withThrowingTaskGroup(of: Void.self) { services in
                for service in connection.databaseServices { services.addTask { try await service.run() } }
                do {
                    try await connection.store.migrate()
                    try await body(connection, lease, loops)
                } catch {
                    await connection.store.close()
                    services.cancelAll()
                    throw error
                }
                await connection.store.close()
                services.cancelAll()
            }
        }
    }

    @Test(
        "PostgreSQL: a ledger's openAll prepares the reads' statements on each loop's connection, so the first read runs on a plan made before; unless told not to",
        arguments: [true, false])
    func ledgerPreparesReads(preparing: Bool) async throws {
        // One connection a loop: the read and the look at its statements share it.
        try await Self.withLedger(perLoop: 1) { connection, lease, loops in
            await lease.openAll(preparing: preparing)
            #expect(lease.openConnections == loops.count)
            let read = LedgerStatements.SubscriberRead.name
            for loop in loops {
                let (before, after) = try await Self.on(loop) {
                    let before = try await Self.preparedStatements(lease)
                    _ = try await connection.store.projection(appUserID: "reader-1", latestGlobalEvent: .appStoreNotification)
                    return (before, try await Self.preparedStatements(lease))
                }
                if preparing {
                    #expect(before.keys.sorted() == LedgerStatements.kept.map { $0.name }.sorted())
                    // The generic plan made (and run) before the first read, which it serves.
                    #expect((before[read]?[1] ?? 0) >= 1)
                    #expect(after[read]?[0] == before[read]?[0])
                    #expect(after[read]?[1] == (before[read]?[1] ?? 0) + 1)
                } else {
                    #expect(before.isEmpty)
                    #expect(after[read] == [1, 0])
                }
            }
            #expect(lease.openConnections == loops.count)
        }
    }

    @Test("PostgreSQL: a connection whose backend was terminated is replaced; the read still answers, whether or not the end was seen before it")
    func replacesTerminated() async throws {
        try await Self.withLease(perLoop: 1) { lease, group in
            let loop = group.next()
            var previous = try #require(try await Self.on(loop) { try await Self.backend(lease, loop: loop) })
            // Read right after each termination: the connection may not be known closed yet, and the
            // read that meets its end runs again on a new one.
            for _ in 0..<5 {
                try await Self.terminate(previous.pid)
                let next = try #require(try await Self.on(loop) { try await Self.backend(lease, loop: loop) })
                #expect(next.pid != previous.pid)
                #expect(next.onLoop)
                #expect(lease.openConnections == 1)
                previous = next
            }
        }
    }

    @Test("PostgreSQL: a server that can't be reached fails each read, the waiting ones too, and openAll quietly; no connection is left counted")
    func unreachable() async throws {
        var configuration = try Self.testCluster()
        configuration = PostgresClient.Configuration(
            host: "127.0.0.1", port: 1, username: configuration.username, password: configuration.password, database: configuration.database, tls: .disable)
        try await Self.withLease(perLoop: 1, configuration: configuration) { lease, group in
            let loop = group.next()
            let failures = await Self.on(loop) {
                await withTaskGroup(of: Bool.self) { tasks in
                    for _ in 0..<3 {
                        tasks.addTask {
                            do {
                                _ = try await Self.backend(lease, loop: loop)
                                return false
                            } catch {
                                return true
                            }
                        }
                    }
                    var failures = 0
                    for await failed in tasks where failed { failures += 1 }
                    return failures
                }
            }
            #expect(failures == 3)
            #expect(lease.openConnections == 0)
            // Opening them all up front fails quietly: nothing counted, and reads still open and fail.
            await lease.openAll()
            #expect(lease.openConnections == 0)
            await #expect(throws: (any Error).self) { _ = try await Self.on(loop) { try await Self.backend(lease, loop: loop) } }
            #expect(lease.openConnections == 0)
        }
    }

    @Test("PostgreSQL: closing closes the idle connections (their backends end) and refuses later reads")
    func closing() async throws {
        try await Self.withLease(perLoop: 2) { lease, group in
            let loop = group.next()
            let read = try #require(try await Self.on(loop) { try await Self.backend(lease, loop: loop) })
            await lease.close()
            #expect(lease.openConnections == 0)
            await #expect(throws: PostgresLoopLease.Closed.self) {
                _ = try await Self.on(loop) { try await Self.backend(lease, loop: loop) }
            }
            // The backend ends once PostgreSQL has read the connection's termination.
            var alive = true
            try await StorageEngine.withClient(try Self.testCluster()) { admin in
                for _ in 0..<100 where alive {
                    var count = 0
                    for try await row in try await admin.query("SELECT count(*) AS n FROM pg_stat_activity WHERE pid = \(Int32(read.pid))") {
                        count = try row.decode(Int.self)
                    }
                    alive = count > 0
                    if alive { try await Task.sleep(for: .milliseconds(50)) }
                }
            }
            #expect(!alive)
        }
    }

    @Test("PostgreSQL: a ledger opened by LedgerConnection reads on a loop's connection from that loop, on the pool elsewhere, with the same answer")
    func ledgerReads() async throws {
        try await Self.withLedger(perLoop: 2) { connection, lease, loops in
            let store = connection.store
            let transaction = AppleFacts(bundleID: "com.screentimerewards").subscription(
                "com.screentimerewards.family.monthly", original: "100", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))
            _ = try await store.append(LedgerEvents.appTransaction(1, appUserID: "reader-1", transaction))
            let pooled = try await store.events(appUserID: "reader-1")
            #expect(lease.openConnections == 0)
            let onLoop = try await Self.on(loops[0]) { try await store.events(appUserID: "reader-1") }
            #expect(onLoop == pooled)
            #expect(pooled.count == 1)
            #expect(lease.openConnections == 1)
        }
    }

    @Test(
        "How a pool_size is shared between the pool and the event loops' reads",
        arguments: [
            (20, 2, 12, 4), (100, 2, 92, 4), (8, 2, 4, 2), (4, 2, 2, 1), (3, 2, 3, 0), (1, 1, 1, 0), (20, 16, 20, 0), (64, 16, 32, 2), (8, 0, 8, 0),
        ])
    func shares(_ total: Int, _ loops: Int, _ pool: Int, _ perLoop: Int) {
        let shares = LedgerConnection.postgresShares(total: total, loops: loops)
        #expect(shares.pool == pool)
        #expect(shares.perLoop == perLoop)
        #expect(shares.pool + shares.perLoop * loops == total)
    }
}
