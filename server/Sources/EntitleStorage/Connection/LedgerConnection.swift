import Foundation
import Logging
import NIOPosix
import PostgresNIO
import ServiceLifecycle

/// A ledger store and the long-running services its database needs.
///
/// Opening does the I/O that needs no service (SQLite opens its file); ``services`` run the rest
/// (PostgreSQL's connection pool) and close the store on graceful shutdown, after whatever was
/// listed after them has stopped. Migrating is the owner's step, once the services run.
public struct LedgerConnection: Sendable {
    public let store: any LedgerStore
    /// What the database needs running while the store is used (PostgreSQL's pool and the event
    /// loops' connections).
    let databaseServices: [any Service]
    /// PostgreSQL's connections for reads from tasks running on the event loops of
    /// `MultiThreadedEventLoopGroup.singleton` (the HTTP server's), one loop's each; nil on SQLite, or
    /// when the pool's size leaves none.
    public let loopLease: PostgresLoopLease?

    init(store: any LedgerStore, databaseServices: [any Service], loopLease: PostgresLoopLease? = nil) {
        self.store = store
        self.databaseServices = databaseServices
        self.loopLease = loopLease
    }

    /// Run these in the owner's service group, first, so they stop last: the database's services,
    /// then the store's closing on graceful shutdown.
    public var services: [any Service] { databaseServices + [LedgerClosing(store: store)] }

    /// How many sessions the database runs at once: PostgreSQL's pool size; SQLite's writer and reader; memory's one lock.
    public static func sessionCapacity(_ database: LedgerDatabase) -> Int {
        switch database {
        case .sqlite: 2
        case .postgres(let configuration, _): configuration.options.maximumConnections
        case .memory: 1
        }
    }

    /// Opens `database`; nothing is migrated yet. PostgreSQL is connected to once first
    /// (``PostgresStartupCheck``): a server that refuses the role, the password or the database fails
    /// here with PostgreSQL's reason; one not reachable yet is waited for up to `startupPatience`.
    /// PostgreSQL's connections (the URL's `pool_size`) are shared out by ``postgresShares(total:loops:)``.
    public static func open(
        _ database: LedgerDatabase, logger: Logger, observer: StorageObserver = .none,
        startupPatience: Duration = PostgresStartupCheck.standardPatience, clock: some Clock<Duration> & Sendable = ContinuousClock()
    ) async throws(StorageError) -> LedgerConnection {
        switch database {
        case .sqlite(let path):
            let store = try await SQLiteLedgerStore.openUnmigrated(path: path, logger: logger, observer: observer)
            return LedgerConnection(store: store, databaseServices: [])
        case .memory:
            return LedgerConnection(store: MemoryLedgerStore(), databaseServices: [])
        case .postgres(let configuration, let tls):
            try await PostgresStartupCheck(configuration: configuration, tls: tls, patience: startupPatience, clock: clock, logger: logger).run()
            let group = MultiThreadedEventLoopGroup.singleton
            let shares = postgresShares(total: configuration.options.maximumConnections, loops: Array(group.makeIterator()).count)
            var pooled = configuration
            pooled.options.maximumConnections = shares.pool
            let client = PostgresClient(configuration: pooled, eventLoopGroup: group, backgroundLogger: logger)
            // A statement waits for a pooled connection as long as one connection attempt may take.
            let patience = configuration.options.connectTimeout
            guard shares.perLoop > 0 else {
                return LedgerConnection(
                    store: PostgresLedgerStore.store(client: client, patience: patience, logger: logger, observer: observer), databaseServices: [client])
            }
            let connection: PostgresConnection.Configuration
            do {
                connection = try configuration.connection(tls: tls)
            } catch {
                throw StorageError(.unavailable, "PostgreSQL: the TLS configuration can't be used (\(error))", underlying: error)
            }
            let lease = PostgresLoopLease(
                configuration: connection, group: group, perLoop: shares.perLoop,
                prepare: { connection in try await PostgresEngine.prepareReads(on: connection, logger: logger) }, logger: logger)
            let store = PostgresLedgerStore.store(client: client, patience: patience, lease: lease, logger: logger, observer: observer)
            return LedgerConnection(store: store, databaseServices: [client, lease], loopLease: lease)
        }
    }

    /// How `total` PostgreSQL connections are shared between the pool (writes, and reads from tasks
    /// not running on an event loop) and the reads of `loops` event loops: at most half go to the
    /// loops, the same number to each and at most 4, none when a loop would get less than one; the
    /// pool keeps the rest.
    public static func postgresShares(total: Int, loops: Int) -> (pool: Int, perLoop: Int) {
        guard loops > 0 else { return (total, 0) }
        let perLoop = min(4, total / (2 * loops))
        return (total - perLoop * loops, perLoop)
    }

    /// Opens and migrates `database`, runs `body` with its store while its services run, then closes it.
    public static func with<T: Sendable>(
        _ database: LedgerDatabase, logger: Logger, _ body: @escaping @Sendable (any LedgerStore) async throws -> T
    ) async throws -> T {
        let connection = try await open(database, logger: logger)
        return try await withThrowingTaskGroup(of: T?.self) { group in
            for service in connection.databaseServices {
                group.addTask {
                    try await service.run()
                    return nil
                }
            }
            do {
                try await connection.store.migrate()
                let result = try await body(connection.store)
                await connection.store.close()
                group.cancelAll()
                return result
            } catch {
                await connection.store.close()
                group.cancelAll()
                throw error
            }
        }
    }
}

/// Closes the store on graceful shutdown (services listed after it in a group have stopped by then).
struct LedgerClosing: Service {
    let store: any LedgerStore

    func run() async throws {
        try? await gracefulShutdown()
        await store.close()
    }
}
