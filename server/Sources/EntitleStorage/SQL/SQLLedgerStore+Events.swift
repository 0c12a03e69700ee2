import EntitleCore
import Foundation

/// Reads of the event log (``EventLog``).
extension SQLLedgerStore {
    func events(appUserID: AppUserID) async throws(StorageError) -> [LedgerEvent] {
        try await engine.chains.expand(engine.read { session throws(StorageError) in
            try StoredJSON.decodeEvents(await session.execute(
                "SELECT event, signed_payload FROM ledger_events WHERE app_id = ? AND app_user_id = ? ORDER BY sequence",
                [.id(app), .id(appUserID)]))
        }, engine)
    }

    func events(
        appUserIDs: Set<AppUserID>, after sequence: Int64
    ) async throws(StorageError) -> [(sequence: Int64, appUserID: AppUserID, event: LedgerEvent)] {
        guard !appUserIDs.isEmpty else { return [] }
        let app = app
        let list = SQLValue.inList(appUserIDs.sorted().map { SQLValue.id($0) })
        return try await engine.read { session throws(StorageError) in
            let rows = try await session.execute(
                """
                SELECT sequence, app_user_id, event FROM ledger_events
                WHERE app_id = ? AND sequence > ? AND app_user_id IN \(list.placeholders) ORDER BY sequence
                """, [.id(app), .integer(sequence)] + list.values)
            let events = try StoredJSON.decodeEvents(rows)
            return try zip(rows, events).map { row, event throws(StorageError) in
                guard let sequence = try row.nullableInteger("sequence"), let appUserID: AppUserID = try row.nullableID("app_user_id") else {
                    throw StorageError(.corruptRecord, "a ledger row has no sequence or owner")
                }
                return (sequence, appUserID, event)
            }
        }
    }

    func latestGlobalEvent(source: LedgerEventSource) async throws(StorageError) -> LedgerEvent? {
        try await engine.read { session throws(StorageError) in
            try StoredJSON.decodeEvents(await session.execute(LedgerStatements.latestGlobalEvent, [.id(app), .text(source.rawValue)])).first
        }
    }

    func globalEvents(source: LedgerEventSource) async throws(StorageError) -> [LedgerEvent] {
        try await engine.chains.expand(engine.read { session throws(StorageError) in
            try StoredJSON.decodeEvents(await session.execute(
                "SELECT event, signed_payload FROM ledger_events WHERE app_id = ? AND source = ? AND app_user_id IS NULL AND original_transaction_id IS NULL ORDER BY sequence",
                [.id(app), .text(source.rawValue)]))
        }, engine)
    }

    func heldEvents(originalTransactionID: OriginalTransactionID) async throws(StorageError) -> [LedgerEvent] {
        try await engine.chains.expand(engine.read { session throws(StorageError) in
            try StoredJSON.decodeEvents(await session.execute(
                "SELECT event, signed_payload FROM ledger_events WHERE app_id = ? AND original_transaction_id = ? AND app_user_id IS NULL ORDER BY sequence",
                [.id(app), .id(originalTransactionID)]))
        }, engine)
    }

    func heldPurchases() async throws(StorageError) -> [OriginalTransactionID] {
        try await engine.read { session throws(StorageError) in
            try await session.execute(
                """
                SELECT DISTINCT original_transaction_id FROM ledger_events
                WHERE app_id = ? AND app_user_id IS NULL AND original_transaction_id IS NOT NULL ORDER BY original_transaction_id
                """, [.id(app)]
            ).map { row throws(StorageError) in try row.id("original_transaction_id", as: OriginalTransactionID.self) }
        }
    }

    func heldEventCount() async throws(StorageError) -> Int {
        try await engine.read { session throws(StorageError) in
            Int(try await session.execute(
                "SELECT COUNT(*) AS n FROM ledger_events WHERE app_id = ? AND app_user_id IS NULL AND original_transaction_id IS NOT NULL",
                [.id(app)]
            ).first?.nullableInteger("n") ?? 0)
        }
    }

    func eventCount() async throws(StorageError) -> Int {
        try await engine.read { session throws(StorageError) in
            Int(try await session.execute("SELECT COUNT(*) AS n FROM ledger_events WHERE app_id = ?", [.id(app)]).first?.nullableInteger("n") ?? 0)
        }
    }
}
