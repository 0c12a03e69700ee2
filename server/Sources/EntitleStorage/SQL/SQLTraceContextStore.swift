import EntitleCore
import Foundation

/// The events' trace contexts in the ledger's database (`event_traces`, schema 31), over ``SQLEngine``.
final class SQLTraceContextStore: TraceContextStore {
    let engine: any SQLEngine
    let app: BundleID

    init(engine: any SQLEngine, app: BundleID) {
        self.engine = engine
        self.app = app
    }

    func recordTrace(eventID: String, traceParent: String, at: Date) async throws(StorageError) {
        let app = app
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                "INSERT INTO event_traces (app_id, event_id, trace_parent, recorded_at) VALUES (?, ?, ?, ?) ON CONFLICT (app_id, event_id) DO NOTHING",
                [.id(app), .text(eventID), .text(traceParent), SQLValue(at)])
        }
    }

    func traceParents(eventIDs: [String]) async throws(StorageError) -> [String: String] {
        guard !eventIDs.isEmpty else { return [:] }
        let app = app
        return try await engine.read { sql throws(StorageError) in
            var found: [String: String] = [:]
            // In slices, within every engine's limit of bound values.
            for start in stride(from: 0, to: eventIDs.count, by: 500) {
                let slice = Array(eventIDs[start..<min(start + 500, eventIDs.count)])
                let marks = Array(repeating: "?", count: slice.count).joined(separator: ", ")
                for row in try await sql.execute(
                    "SELECT event_id, trace_parent FROM event_traces WHERE app_id = ? AND event_id IN (\(marks))", [.id(app)] + slice.map { .text($0) })
                {
                    found[try row.text("event_id")] = try row.text("trace_parent")
                }
            }
            return found
        }
    }

    func deleteTraces(before date: Date) async throws(StorageError) -> Int {
        let app = app
        return try await engine.transaction { sql throws(StorageError) in
            try await sql.execute(
                "DELETE FROM event_traces WHERE app_id = ? AND recorded_at < ? RETURNING event_id", [.id(app), SQLValue(date)]).count
        }
    }
}
