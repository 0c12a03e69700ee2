import Foundation
import Testing

@testable import EntitleStorage

@Suite("Unique violation")
struct UniqueViolationTests {
    @Test(
        "SQLite's message names the table and columns; anything else is no unique violation",
        arguments: [
            ("UNIQUE constraint failed: ledger_events.id", UniqueViolation(table: "ledger_events", columns: ["id"])),
            ("UNIQUE constraint failed: ledger_events.app_id, ledger_events.idempotency_key",
             UniqueViolation(table: "ledger_events", columns: ["app_id", "idempotency_key"])),
            ("UNIQUE constraint failed: a.x, b.y", nil),
            ("UNIQUE constraint failed: ", nil),
            ("NOT NULL constraint failed: ledger_events.id", nil),
            ("", nil),
        ] as [(String, UniqueViolation?)])
    func sqlite(message: String, expected: UniqueViolation?) {
        #expect(UniqueViolation(sqliteMessage: message) == expected)
    }

    @Test(
        "PostgreSQL's table and detail name the columns; a detail of another shape, or no table, is no unique violation",
        arguments: [
            ("ledger_events", "Key (id)=(6f1c-…) already exists.", UniqueViolation(table: "ledger_events", columns: ["id"])),
            ("ledger_events", "Key (app_id, idempotency_key)=(a, k) already exists.",
             UniqueViolation(table: "ledger_events", columns: ["app_id", "idempotency_key"])),
            ("ledger_events", "Failing row contains (…).", nil),
            ("ledger_events", "Key (id", nil),
            (nil, "Key (id)=(x) already exists.", nil),
        ] as [(String?, String, UniqueViolation?)])
    func postgres(table: String?, detail: String, expected: UniqueViolation?) {
        #expect(UniqueViolation(postgresTable: table, detail: detail) == expected)
    }

    @Test("only a violation of ledger_events' id becomes storage.eventIDTaken, naming the event when known")
    func eventIDTaken() {
        let id = UUID(uuidString: "00000000-0000-4000-8000-000000000007")!
        let taken = StorageError(.queryFailed, "", underlying: UniqueViolation(table: "ledger_events", columns: ["id"])).eventIDTaken(id)
        #expect(taken.code == .eventIDTaken)
        #expect(taken.message.contains("00000000-0000-4000-8000-000000000007"))
        #expect(StorageError(.queryFailed, "", underlying: UniqueViolation(table: "ledger_events", columns: ["id"])).eventIDTaken(nil).code == .eventIDTaken)
        for other in [UniqueViolation(table: "ledger_events", columns: ["app_id", "idempotency_key"]), UniqueViolation(table: "keys", columns: ["id"])] {
            #expect(StorageError(.queryFailed, "", underlying: other).eventIDTaken(id).code == .queryFailed)
        }
        #expect(StorageError(.unavailable, "").eventIDTaken(id).code == .unavailable)
    }
}
