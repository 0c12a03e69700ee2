import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EntitleStorage

@Suite("AppendRoutine")
struct AppendRoutineTests {
    static let logger = Logger(label: "entitle.tests.append-routine")
    static let apple = AppleFacts()
    static let start = ReferenceTime.start

    /// A notification of purchase `original`'s `period`th period (0: the purchase), seeded by `period` unless given.
    static func renewal(_ period: Int, original: String = "R1", seed: Int? = nil) -> LedgerEvent {
        let transaction = apple.subscription(
            "com.example.monthly", original: original, id: "\(original)-\(period)", purchase: ISODuration(months: period).added(to: start),
            expires: ISODuration(months: period + 1).added(to: start), reason: period == 0 ? .purchase : .renewal)
        return LedgerEvents.notification(seed ?? period, appUserID: nil, type: period == 0 ? .subscribed : .didRenew, transaction: transaction)
    }

    /// Waits until another session waits for the advisory lock `key` in this database.
    static func untilSomeoneWaits(for key: String, _ connection: PostgresConnection) async throws {
        for _ in 0..<1_000 {
            let rows = try await connection.query(
                """
                SELECT COUNT(*)::BIGINT AS waiting FROM pg_locks
                WHERE locktype = 'advisory' AND NOT granted AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
                    AND ((classid::BIGINT << 32) | objid::BIGINT) = hashtextextended(\(key), 0)
                """, logger: logger)
            for try await waiting in rows.decode(Int64.self) where waiting > 0 { return }
            try await Task.sleep(for: .milliseconds(10))
        }
        Issue.record("no append waited for the lock")
    }

    /// Holds `key`'s advisory lock in a transaction on `connection` while `waiting` (an append that
    /// must wait for it) runs, until it waits; runs `during`, then commits and returns what `waiting`
    /// returned. On any error the transaction is rolled back first: the append ends and the test
    /// fails rather than waiting for it.
    static func whileHolding<T: Sendable>(
        _ key: String, _ connection: PostgresConnection, waiting: @escaping @Sendable () async throws -> T, during: () async throws -> Void
    ) async throws -> T {
        try await connection.query("BEGIN", logger: logger)
        try await connection.query("SELECT pg_advisory_xact_lock(hashtextextended(\(key), 0))", logger: logger)
        let waiter = Task { try await waiting() }
        do {
            try await untilSomeoneWaits(for: key, connection)
            try await during()
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            _ = try? await waiter.value
            throw error
        }
        try await connection.query("COMMIT", logger: logger)
        return try await waiter.value
    }

    @Test("PostgreSQL: an append in one call waits for the locks the ledger's statements take, the purchase's and then its owner's",
          arguments: ["purchase", "subscriber"])
    func locks(held: String) async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            try await StorageEngine.withClient(configuration) { client in
                let store = try await PostgresLedgerStore.open(client: client)
                #expect((store as? SQLLedgerStore)?.writePath is RoutineWritePath)
                let app = LedgerEvents.appTransaction(100, appUserID: "u1", Self.apple.subscription(
                    "com.example.monthly", original: "R1", id: "R1-0", purchase: Self.start, expires: ISODuration(months: 1).added(to: Self.start)))
                _ = try await store.append(app)
                let key = held == "purchase" ? LedgerLock.purchase("", "R1").key : LedgerLock.subscriber("", "u1").key
                try await StorageEngine.withClient(configuration) { holder in
                    try await holder.withConnection { connection in
                        let appended = try await Self.whileHolding(key, connection, waiting: { try await store.append(Self.renewal(1)) }) {
                            let during = try await store.events(appUserID: "u1").map(\.idempotencyKey)
                            #expect(during.count == 1, "nothing is appended while the lock is held: \(during)")
                        }
                        #expect(appended == .appended(sequence: 2, appUserID: "u1"))
                    }
                }
                #expect(try await store.projection(appUserID: "u1")?.purchases["R1"]?.currentTransaction?.transactionId == "R1-1")
            }
        }
    }

    @Test("PostgreSQL: an append in one call is the statements' append: owner, held events, duplicates and the kept projection")
    func sameAsStatements() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            try await StorageEngine.withClient(configuration) { client in
                let store = try await PostgresLedgerStore.open(client: client)
                // Held: no owner yet, no token.
                #expect(try await store.append(Self.renewal(0)) == .appended(sequence: 1, appUserID: nil))
                #expect(try await store.heldEventCount() == 1)
                // The app's transaction links the purchase; the held event is applied with it.
                let app = LedgerEvents.appTransaction(100, appUserID: "u1", Self.apple.subscription(
                    "com.example.monthly", original: "R1", id: "R1-0", purchase: Self.start, expires: ISODuration(months: 1).added(to: Self.start)))
                #expect(try await store.append(app) == .appended(sequence: 2, appUserID: "u1"))
                #expect(try await store.heldEventCount() == 0)
                // Later notifications go to the owner, each once; the projection read is the stored one.
                var sequences: [Int64] = []
                for period in 1...3 {
                    guard case .appended(let sequence, "u1") = try await store.append(Self.renewal(period)) else {
                        Issue.record("renewal \(period) is not appended to its owner")
                        continue
                    }
                    sequences.append(sequence)
                    #expect(try await store.append(Self.renewal(period)) == .duplicate)
                }
                #expect(sequences == sequences.sorted() && Set(sequences).count == 3 && sequences.allSatisfy { $0 > 2 })
                let live = try #require(try await store.projection(appUserID: "u1"))
                #expect(live.purchases["R1"]?.currentTransaction?.transactionId == "R1-3")
                #expect(try await store.events(appUserID: "u1").count == 5)
                _ = try await store.rebuildProjections()
                #expect(try await store.projection(appUserID: "u1") == live)
            }
        }
    }
}
