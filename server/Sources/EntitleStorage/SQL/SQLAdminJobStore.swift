import EntitleCore
import Foundation

/// The admin jobs in the ledger's database (`admin_jobs`), written once over ``SQLEngine``.
final class SQLAdminJobStore: AdminJobStore {
    let engine: any SQLEngine
    let app: BundleID

    init(engine: any SQLEngine, app: BundleID) {
        self.engine = engine
        self.app = app
    }

    func insertJob(_ job: AdminJob) async throws(StorageError) {
        let app = app
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                """
                INSERT INTO admin_jobs (id, app_id, kind, state, holder, created_at, finished_at, result, error_code, error_message)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.text(job.id), .id(app), .text(job.kind), .text(job.state.rawValue), .text(job.holder), SQLValue(job.createdAt),
                 SQLValue(job.finishedAt), SQLValue(job.result), SQLValue(job.errorCode), SQLValue(job.errorMessage)])
        }
    }

    func finishJob(_ job: AdminJob) async throws(StorageError) {
        let app = app
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                """
                UPDATE admin_jobs SET state = ?, finished_at = ?, result = ?, error_code = ?, error_message = ?
                WHERE app_id = ? AND id = ? AND state = 'running'
                """,
                [.text(job.state.rawValue), SQLValue(job.finishedAt), SQLValue(job.result), SQLValue(job.errorCode), SQLValue(job.errorMessage),
                 .id(app), .text(job.id)])
        }
    }

    func job(id: String) async throws(StorageError) -> AdminJob? {
        let app = app
        return try await engine.read { sql throws(StorageError) in
            guard let row = try await sql.execute("SELECT * FROM admin_jobs WHERE app_id = ? AND id = ?", [.id(app), .text(id)]).first else {
                return nil
            }
            guard let kind = row["kind"]?.text, let state = row["state"]?.text.flatMap(AdminJob.State.init(rawValue:)),
                let holder = row["holder"]?.text, let created = row["created_at"]?.date
            else { throw StorageError(.corruptRecord, "an admin job's row is incomplete") }
            return AdminJob(
                id: id, kind: kind, state: state, holder: holder, createdAt: created, finishedAt: row["finished_at"]?.date,
                result: row["result"]?.text, errorCode: row["error_code"]?.text, errorMessage: row["error_message"]?.text)
        }
    }
}
