@testable import EntitleStorage
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@Suite("PostgresPool: a statement waits for a pooled connection at most its patience")
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

    @Test("with PostgreSQL unreachable, a statement fails once its patience has passed, not when the pool gives up a minute later")
    func unreachableServer() async throws {
        try await StorageEngine.withClient(Self.unreachable) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(200))
            await #expect(throws: PostgresPool.NoConnection.self) {
                _ = try await pool.withConnection { try await Self.answer($0) }
            }
        }
    }

    @Test("with PostgreSQL unreachable, a ledger's write and its read off the event loops fail storage.unavailable saying how long they waited")
    func unreachableLedger() async throws {
        try await StorageEngine.withClient(Self.unreachable) { client in
            let store = PostgresLedgerStore.store(client: client, patience: .milliseconds(200), logger: Logger(label: "entitle.tests.pool"))
            let purchase = AppleFacts(bundleID: store.app).subscription(
                "com.example.monthly", original: "O1", id: "T1", purchase: ReferenceTime.start, expires: ReferenceTime.day(30))
            let write = await #expect(throws: StorageError.self) {
                _ = try await store.append(LedgerEvents.appTransaction(1, appUserID: "reader", purchase))
            }
            #expect(write?.code == .unavailable)
            #expect(write?.message.contains("no PostgreSQL connection came within") == true)
            let read = await #expect(throws: StorageError.self) { _ = try await store.projection(appUserID: "reader") }
            #expect(read?.code == .unavailable)
        }
    }

    @Test("PostgreSQL: work that got its connection runs to its end, however long after the patience")
    func workNotCutShort() async throws {
        try await StorageEngine.withClient(try StorageEngine.testClusterConfiguration()) { client in
            let pool = PostgresPool(client: client, patience: .milliseconds(20))
            let answer = try await pool.withConnection { connection in
                try await Task.sleep(for: .milliseconds(200))
                return try await Self.answer(connection)
            }
            #expect(answer == 42)
        }
    }

    @Test("PostgreSQL: with every connection in use, a statement fails once its patience has passed; the connection handed back serves the next")
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
            await #expect(throws: PostgresPool.NoConnection.self) {
                _ = try await pool.withConnection { try await Self.answer($0) }
            }
            release.yield()
            let first = try await holder
            #expect(first == 42)
            let next = try await pool.withConnection { try await Self.answer($0) }
            #expect(next == 42)
        }
    }
}
