import Foundation

/// One app's admin jobs, in the ledger's database.
public protocol AdminJobStore: Sendable {
    func insertJob(_ job: AdminJob) async throws(StorageError)
    /// Records how a running job ended; a job that already ended keeps its first ending.
    func finishJob(_ job: AdminJob) async throws(StorageError)
    /// The job `id` of this app, if any.
    func job(id: String) async throws(StorageError) -> AdminJob?
}
