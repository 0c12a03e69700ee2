import Foundation

/// One app's customer imports, in the ledger's database: they outlive the instance that started them
/// (any instance holding the job's lease carries one on).
public protocol ImportJobStore: Sendable {
    func insertImportJob(_ job: StoredImportJob) async throws(StorageError)
    /// The import `id` of this app, its input included.
    func importJob(id: String) async throws(StorageError) -> StoredImportJob?
    /// The app's running imports, oldest first, without their input.
    func runningImportJobs() async throws(StorageError) -> [StoredImportJob]
    /// Records a running import's progress, and its end when `state` is not `running`. `false` when the
    /// job is not running (it ended meanwhile): nothing is written.
    func updateImportJob(id: String, state: StoredImportJob.State, progress: String, at: Date) async throws(StorageError) -> Bool
}
