import EntitleCore
import Foundation

/// The events set aside, in the ledger's database (`set_aside_events`), written once over ``SQLEngine``.
final class SQLSetAsideStore: SetAsideStore {
    let engine: any SQLEngine
    let app: BundleID

    init(engine: any SQLEngine, app: BundleID) {
        self.engine = engine
        self.app = app
    }

    func setAside(_ events: [SetAsideEvent]) async throws(StorageError) -> Int {
        guard !events.isEmpty else { return 0 }
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            var added = 0
            for event in events {
                let rows = try await session.execute(
                    """
                    INSERT INTO set_aside_events (app_id, consumer, event_id, app_user_id, reason, set_aside_at)
                    VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (app_id, consumer, event_id) DO NOTHING RETURNING event_id
                    """,
                    [.id(app), .text(event.consumer), .text(event.eventID.uuidString), SQLValue(event.appUserID), .text(event.reason),
                     SQLValue(event.setAsideAt)])
                added += rows.count
            }
            return added
        }
    }

    func setAsideEvents(limit: Int) async throws(StorageError) -> [SetAsideEvent] {
        let app = app
        return try await engine.read { session throws(StorageError) in
            try await session.execute(
                "SELECT * FROM set_aside_events WHERE app_id = ? ORDER BY set_aside_at DESC, event_id LIMIT ?",
                [.id(app), .integer(Int64(max(0, limit)))]
            ).map { row throws(StorageError) in
                guard let consumer = try row.nullableText("consumer"), let id = try row.nullableText("event_id").flatMap(UUID.init(uuidString:)),
                    let reason = try row.nullableText("reason"), let at = try row.nullableDate("set_aside_at")
                else { throw StorageError(.corruptRecord, "a set-aside event's row is incomplete") }
                return SetAsideEvent(consumer: consumer, eventID: id, appUserID: try row.nullableID("app_user_id"), reason: reason, setAsideAt: at)
            }
        }
    }
}
