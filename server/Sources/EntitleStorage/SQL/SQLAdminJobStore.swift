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
            guard let kind = try row.nullableText("kind"), let state = try row.nullableText("state").flatMap(AdminJob.State.init(rawValue:)),
                let holder = try row.nullableText("holder"), let created = try row.nullableDate("created_at")
            else { throw StorageError(.corruptRecord, "an admin job's row is incomplete") }
            return AdminJob(
                id: id, kind: kind, state: state, holder: holder, createdAt: created, finishedAt: try row.nullableDate("finished_at"),
                result: try row.nullableText("result"), errorCode: try row.nullableText("error_code"), errorMessage: try row.nullableText("error_message"))
        }
    }
}
