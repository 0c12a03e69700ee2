import Foundation

/// Leases on an app's periodic jobs (reconciliation, webhook publishing), so one server instance runs
/// each at a time, and the mark each run leaves for the next.
public protocol JobLeases: Sendable {
    /// Takes the lease of the app's job `job` for `holder` until `until`, when no other holder's lease
    /// is current at `now` (the same holder renews its own); `nil` when another holder has it.
    func acquireJob(_ job: LeasedJob, holder: String, now: Date, until: Date) async throws(StorageError) -> JobLease?

    /// Records a completed run of the leased job: its new mark, and the lease released.
    func completeJob(_ lease: JobLease, mark: Date?) async throws(StorageError)
}
