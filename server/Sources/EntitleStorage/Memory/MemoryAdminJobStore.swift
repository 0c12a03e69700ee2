import EntitleCore
import Foundation

/// An app's admin jobs in a ``MemoryDatabase`` (``AdminJobStore``).
struct MemoryAdminJobStore: AdminJobStore {
    let database: MemoryDatabase
    let app: BundleID

    func insertJob(_ job: AdminJob) async throws(StorageError) {
        try database.transaction { state throws(StorageError) in
            guard !state.adminJobs.values.contains(where: { $0[job.id] != nil }) else {
                throw StorageError(.queryFailed, "an admin job with the ID \(job.id) exists")
            }
            var stored = job
            stored.createdAt = job.createdAt.storedPrecision
            stored.finishedAt = job.finishedAt?.storedPrecision
            state.adminJobs[app, default: [:]][job.id] = stored
        }
    }

    func finishJob(_ job: AdminJob) async throws(StorageError) {
        database.transaction { state in
            guard var stored = state.adminJobs[app]?[job.id], stored.state == .running else { return }
            stored.state = job.state
            stored.finishedAt = job.finishedAt?.storedPrecision
            stored.result = job.result
            stored.errorCode = job.errorCode
            stored.errorMessage = job.errorMessage
            state.adminJobs[app]?[job.id] = stored
        }
    }

    func job(id: String) async throws(StorageError) -> AdminJob? {
        database.transaction { state in state.adminJobs[app]?[id] }
    }
}
