import EntitleCore
import Foundation

/// An app's customer imports in a ``MemoryDatabase`` (``ImportJobStore``).
struct MemoryImportJobStore: ImportJobStore {
    let database: MemoryDatabase
    let app: BundleID

    func insertImportJob(_ job: StoredImportJob) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard state.importJobs[app]?[job.id] == nil else { throw StorageError(.queryFailed, "an import job with the ID \(job.id) exists") }
            var stored = job
            stored.createdAt = job.createdAt.storedPrecision
            stored.updatedAt = job.updatedAt.storedPrecision
            stored.finishedAt = job.finishedAt?.storedPrecision
            state.importJobs[app, default: [:]][job.id] = stored
        }
    }

    func importJob(id: String) async throws(StorageError) -> StoredImportJob? {
        database.transaction { state in state.importJobs[app]?[id] }
    }

    func runningImportJobs() async throws(StorageError) -> [StoredImportJob] {
        database.transaction { state in
            (state.importJobs[app] ?? [:]).values.filter { $0.state == .running }.sorted { ($0.createdAt, $0.id) < ($1.createdAt, $1.id) }.map { job in
                var listed = job
                listed.input = ""
                return listed
            }
        }
    }

    func updateImportJob(id: String, state: StoredImportJob.State, progress: String, at: Date) async throws(StorageError) -> Bool {
        database.transaction { database in
            guard var job = database.importJobs[app]?[id], job.state == .running else { return false }
            job.state = state
            job.progress = progress
            job.updatedAt = at.storedPrecision
            job.finishedAt = state == .running ? nil : at.storedPrecision
            database.importJobs[app]?[id] = job
            return true
        }
    }
}
