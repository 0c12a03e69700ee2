import EntitleCore
import Foundation

extension SQLLedgerStore {
    /// The app's last event through the engine's read horizon (PostgreSQL: below it every transaction
    /// has committed; SQLite: every event, its one writer commits in order).
    func feedHead() async throws(StorageError) -> Int64 {
        let horizon = try await engine.readHorizon()
        let app = app
        return try await engine.read { session throws(StorageError) in
            try await session.execute(
                "SELECT COALESCE(MAX(sequence), 0) AS head FROM ledger_events WHERE app_id = ? AND sequence <= ?", [.id(app), .integer(horizon)]
            ).first?.nullableInteger("head") ?? 0
        }
    }

    func feedEvents(after position: Int64, through head: Int64, limit: Int) async throws(StorageError) -> [(sequence: Int64, event: LedgerEvent)] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            let rows = try await session.execute(
                "SELECT sequence, event FROM ledger_events WHERE app_id = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?",
                [.id(app), .integer(position), .integer(head), .integer(Int64(max(1, limit)))])
            let events = try StoredJSON.decodeEvents(rows)
            return try zip(rows, events).map { row, event throws(StorageError) in (try row.integer("sequence"), event) }
        }
    }

    func wholeEvents(sequences: [Int64]) async throws(StorageError) -> [Int64: LedgerEvent] {
        guard !sequences.isEmpty else { return [:] }
        let app = app
        let list = SQLValue.inList(Set(sequences).sorted().map { SQLValue.integer($0) })
        let rows = try await engine.read { session throws(StorageError) in
            try await session.execute(
                "SELECT sequence, event, signed_payload FROM ledger_events WHERE app_id = ? AND sequence IN \(list.placeholders) ORDER BY sequence",
                [.id(app)] + list.values)
        }
        let events = try await engine.chains.expand(try StoredJSON.decodeEvents(rows), engine)
        var whole: [Int64: LedgerEvent] = [:]
        for (row, event) in zip(rows, events) { whole[try row.integer("sequence")] = event }
        return whole
    }
}
