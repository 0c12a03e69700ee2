import EntitleCore
import Foundation

/// The customer imports in the ledger's database (`import_jobs`), over ``SQLEngine``.
final class SQLImportJobStore: ImportJobStore {
    let engine: any SQLEngine
    let app: BundleID

    init(engine: any SQLEngine, app: BundleID) {
        self.engine = engine
        self.app = app
    }

    func insertImportJob(_ job: StoredImportJob) async throws(StorageError) {
        let app = app
        try await engine.transaction { sql throws(StorageError) in
            _ = try await sql.execute(
                """
                INSERT INTO import_jobs (app_id, id, state, digest, input, progress, created_at, updated_at, finished_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [.id(app), .text(job.id), .text(job.state.rawValue), .text(job.digest), .text(job.input), .text(job.progress), SQLValue(job.createdAt),
                 SQLValue(job.updatedAt), SQLValue(job.finishedAt)])
        }
    }

    func importJob(id: String) async throws(StorageError) -> StoredImportJob? {
        let app = app
        return try await engine.read { sql throws(StorageError) in
            try await sql.execute("SELECT * FROM import_jobs WHERE app_id = ? AND id = ?", [.id(app), .text(id)]).first.map(Self.job)
        }
    }

    func runningImportJobs() async throws(StorageError) -> [StoredImportJob] {
        let app = app
        return try await engine.read { sql throws(StorageError) in
            try await sql.execute(
                """
                SELECT app_id, id, state, digest, '' AS input, progress, created_at, updated_at, finished_at FROM import_jobs
                WHERE app_id = ? AND state = 'running' ORDER BY created_at, id
                """, [.id(app)]
            ).map(Self.job)
        }
    }

    func updateImportJob(id: String, state: StoredImportJob.State, progress: String, at: Date) async throws(StorageError) -> Bool {
        let app = app
        return try await engine.transaction { sql throws(StorageError) in
            !(try await sql.execute(
                """
                UPDATE import_jobs SET state = ?, progress = ?, updated_at = ?, finished_at = ?
                WHERE app_id = ? AND id = ? AND state = 'running' RETURNING id
                """,
                [.text(state.rawValue), .text(progress), SQLValue(at), SQLValue(state == .running ? nil : at), .id(app), .text(id)]
            ).isEmpty)
        }
    }

    private static func job(_ row: SQLRow) throws(StorageError) -> StoredImportJob {
        guard let id = try row.nullableText("id"), let state = try row.nullableText("state").flatMap(StoredImportJob.State.init(rawValue:)),
            let digest = try row.nullableText("digest"), let input = try row.nullableText("input"), let progress = try row.nullableText("progress"),
            let created = try row.nullableDate("created_at"), let updated = try row.nullableDate("updated_at")
        else { throw StorageError(.corruptRecord, "an import job's row is incomplete") }
        return StoredImportJob(
            id: id, state: state, digest: digest, input: input, progress: progress, createdAt: created, updatedAt: updated,
            finishedAt: try row.nullableDate("finished_at"))
    }
}
