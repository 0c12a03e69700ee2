import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
import Logging
import PostgresNIO
import Testing

@testable import EntitleStorage

@Suite("KeptAppendRoutine")
struct KeptAppendRoutineTests {
    static let logger = Logger(label: "entitle.tests.kept-append-routine")
    static let apple = AppleFacts()
    static let start = ReferenceTime.start

    static func renewal(_ period: Int, original: String = "R1", seed: Int? = nil) -> LedgerEvent {
        AppendRoutineTests.renewal(period, original: original, seed: seed)
    }

    static func purchase(_ appUserID: AppUserID, original: String = "R1", seed: Int = 100) -> LedgerEvent {
        LedgerEvents.appTransaction(seed, appUserID: appUserID, apple.subscription(
            "com.example.monthly", original: original, id: "\(original)-0", purchase: start, expires: ISODuration(months: 1).added(to: start)))
    }

    /// Each subscriber's stored event count, and the projection `entitle rebuild` would store.
    static func expectConsistent(_ store: any LedgerStore, _ client: PostgresClient, _ appUserID: String) async throws {
        let live = try #require(try await store.projection(appUserID: AppUserID(appUserID)))
        let events = try await store.events(appUserID: AppUserID(appUserID))
        var counted: Int64?
        for try await count in try await client.query(
            "SELECT event_count FROM subscribers WHERE app_user_id = \(appUserID)", logger: logger
        ).decode(Int64.self) { counted = count }
        #expect(counted == Int64(events.count))
        _ = try await store.rebuildProjections()
        #expect(try await store.projection(appUserID: AppUserID(appUserID)) == live)
    }

    @Test("PostgreSQL: an append to a subscriber whose projection the instance keeps is one call of the kept routine")
    func oneStatement() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            try await StorageEngine.withClient(configuration) { client in
                let store = try await PostgresLedgerStore.open(client: client)
                #expect((store as? SQLLedgerStore)?.writePath is RoutineWritePath)
                _ = try await store.append(Self.purchase("u1"))
                let key = LedgerLock.subscriber("", "u1").key
                try await StorageEngine.withClient(configuration) { holder in
                    try await holder.withConnection { connection in
                        let appended = try await AppendRoutineTests.whileHolding(key, connection, waiting: { try await store.append(Self.renewal(1)) }) {
                            // The waiting append is one call of the routine: the event and the projection wait together.
                            let rows = try await connection.query(
                                "SELECT query FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = current_database()", logger: Self.logger)
                            var waiting: [String] = []
                            for try await query in rows.decode(String.self) { waiting.append(query) }
                            #expect(waiting.count == 1)
                            #expect(waiting.first?.contains(KeptAppendRoutine.name) == true, "\(waiting)")
                        }
                        #expect(appended == .appended(sequence: 2, appUserID: "u1"))
                    }
                }
                #expect(try await store.append(Self.renewal(1)) == .duplicate)
                #expect(try await store.projection(appUserID: "u1")?.purchases["R1"]?.currentTransaction?.transactionId == "R1-1")
                try await Self.expectConsistent(store, client, "u1")
            }
        }
    }

    @Test("PostgreSQL: when another instance stored the subscriber since, the append folds the stored projection, not the kept one")
    func anotherInstanceWrote() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            try await StorageEngine.withClient(configuration) { first in
                try await StorageEngine.withClient(configuration) { second in
                    let one = try await PostgresLedgerStore.open(client: first)
                    let other = try await PostgresLedgerStore.open(client: second)
                    _ = try await one.append(Self.purchase("u1"))
                    _ = try await one.append(Self.renewal(1))
                    // The other instance renews and records a second purchase; the first still keeps its own revision.
                    _ = try await other.append(Self.renewal(2))
                    _ = try await other.append(Self.purchase("u1", original: "R2", seed: 101))
                    guard case .appended(_, "u1") = try await one.append(Self.renewal(4)) else {
                        Issue.record("the fourth renewal is not appended to its owner")
                        return
                    }
                    let facts = try #require(try await one.projection(appUserID: "u1"))
                    #expect(facts.purchases.keys.sorted() == ["R1", "R2"])
                    #expect(facts.purchases["R1"]?.currentTransaction?.transactionId == "R1-4")
                    #expect(try await other.projection(appUserID: "u1") == facts)
                    try await Self.expectConsistent(one, first, "u1")
                }
            }
        }
    }

    @Test("PostgreSQL: a purchase with no owner yet is linked by the transaction's append, with its held events, though its subscriber is kept")
    func linksHeldEvents() async throws {
        try await StorageEngine.withPostgresDatabaseConfiguration(migrated: true) { configuration in
            try await StorageEngine.withClient(configuration) { client in
                let store = try await PostgresLedgerStore.open(client: client)
                _ = try await store.append(Self.purchase("u1"))
                _ = try await store.append(Self.renewal(1))
                // A second purchase's notification arrives before the app reports it: held.
                #expect(try await store.append(Self.renewal(0, original: "R2", seed: 50)) == .appended(sequence: 3, appUserID: nil))
                #expect(try await store.heldEventCount() == 1)
                #expect(try await store.append(Self.purchase("u1", original: "R2", seed: 101)) == .appended(sequence: 4, appUserID: "u1"))
                #expect(try await store.heldEventCount() == 0)
                let facts = try #require(try await store.projection(appUserID: "u1"))
                #expect(facts.purchases.keys.sorted() == ["R1", "R2"])
                #expect(try await store.owner(originalTransactionID: "R2") == "u1")
                #expect(try await store.append(Self.renewal(1, original: "R2", seed: 51)) == .appended(sequence: 5, appUserID: "u1"))
                try await Self.expectConsistent(store, client, "u1")
            }
        }
    }
}
