@testable import EntitleStorage
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@Suite("PostgresPool: once PostgreSQL looks away, a statement waits for a pooled connection at most its patience")
struct PostgresPoolTests {
    /// A server nothing listens for: every connection attempt is refused at once, and PostgresNIO's
    /// pool keeps trying, holding what waits until its circuit breaker trips after 60 s.
    static let unreachable = PostgresClient.Configuration(
        host: "127.0.0.1", port: 1, username: "postgres", password: nil, database: "postgres", tls: .disable)

    static func answer(_ connection: PostgresConnection) async throws -> Int {
        var answer = 0
        for try await value in try await connection.query("SELECT 41 + 1", logger: Logger(label: "entitle.tests.pool")).decode(Int.self) {
            answer = value
        }
        return answer
    }

    /// `body` while a statement waits in the pool for a connection that doesn't come, for longer than
    /// `suspicion`; that statement is cancelled afterwards, and must have failed.
    static func whileOneWaits(
        suspicion: Duration, _ first: @escaping @Sendable () async throws -> Void, _ body: () async throws -> Void
    ) async throws {
        let waiting = Task { try await first() }
        try await Task.sleep(for: suspicion * 3)
        try await body()
        waiting.cancel()
        await #expect(throws: (any Error).self) { try await waiting.value }
    }

    @Test("with PostgreSQL unreachable, statements after one that waited past the suspicion fail once their patience has passed, not a minute later")
    func unreachableServer() async throws {
        try await StorageEngine.withClient(Self.unreachable) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(200), suspicion: .milliseconds(50))
            try await Self.whileOneWaits(suspicion: pool.suspicion, { _ = try await pool.withConnection { try await Self.answer($0) } }) {
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
            let store = PostgresLedgerStore.store(
                client: client, patience: .milliseconds(200), suspicion: .milliseconds(50), logger: Logger(label: "entitle.tests.pool"))
            let purchase = AppleFacts(bundleID: store.app).subscription(
                "com.example.monthly", original: "O1", id: "T1", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))
            try await Self.whileOneWaits(suspicion: .milliseconds(50), { _ = try await store.projection(appUserID: "first") }) {
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

    @Test("PostgreSQL: work waited for with patience runs to its end once it has its connection, however long after the patience")
    func workNotCutShort() async throws {
        try await StorageEngine.withClient(try StorageEngine.testClusterConfiguration()) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(20))
            let answer = try await pool.withPatience { connection in
                try await Task.sleep(for: .milliseconds(200))
                return try await Self.answer(connection)
            }
            #expect(answer == 42)
        }
    }

    @Test("PostgreSQL: with every connection in use, a statement waited for with patience fails once it has passed; the connection handed back serves the next")
    func busyPool() async throws {
        var configuration = try StorageEngine.testClusterConfiguration()
        configuration.options.maximumConnections = 1
        try await StorageEngine.withClient(configuration) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(100))
            let (holding, held) = AsyncStream<Void>.makeStream()
            let (releasing, release) = AsyncStream<Void>.makeStream()
            async let holder = pool.withConnection { connection in
                held.yield()
                for await _ in releasing { break }
                return try await Self.answer(connection)
            }
            for await _ in holding { break }
            await #expect(throws: PostgresPool<ContinuousClock>.NoConnection.self) {
                _ = try await pool.withPatience { try await Self.answer($0) }
            }
            release.yield()
            let first = try await holder
            #expect(first == 42)
            let next = try await pool.withPatience { try await Self.answer($0) }
            #expect(next == 42)
        }
    }
}
