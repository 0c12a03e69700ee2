import EntitleCore
import Foundation

/// The audit log in the ledger's database (`audit_log`), over ``SQLEngine``.
final class SQLAuditLog: AuditLog {
    let engine: any SQLEngine
    let app: BundleID

    init(engine: any SQLEngine, app: BundleID) {
        self.engine = engine
        self.app = app
    }

    func append(_ entry: AuditEntry) async throws(StorageError) {
        let app = app
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                """
                INSERT INTO audit_log (app_id, at, actor, action, subject, request, status, request_id, state_before, state_after)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.id(app), SQLValue(entry.at), .text(entry.actor), .text(entry.action), SQLValue(entry.subject), SQLValue(entry.request),
                 .integer(Int64(entry.status)), SQLValue(entry.requestID), SQLValue(entry.before), SQLValue(entry.after)])
        }
    }

    func entries(before sequence: Int64?, limit: Int) async throws(StorageError) -> [AuditEntry] {
        let app = app
        let limit = min(max(limit, 1), 1_000)
        return try await engine.read { sql throws(StorageError) in
            try await sql.execute(
                "SELECT * FROM audit_log WHERE app_id = ? AND sequence < ? ORDER BY sequence DESC LIMIT \(limit)",
                [.id(app), .integer(sequence ?? .max)]
            ).map { row throws(StorageError) in
                guard let sequence = try row.nullableInteger("sequence"), let at = try row.nullableDate("at"), let actor = try row.nullableText("actor"),
                    let action = try row.nullableText("action"), let status = try row.nullableInteger("status")
                else { throw StorageError(.corruptRecord, "an audit entry's row is incomplete") }
                return AuditEntry(
                    sequence: sequence, at: at, actor: actor, action: action, subject: try row.nullableText("subject"), request: try row.nullableText("request"),
                    status: Int(status), requestID: try row.nullableText("request_id"), before: try row.nullableText("state_before"),
                    after: try row.nullableText("state_after"))
            }
        }
    }
}
