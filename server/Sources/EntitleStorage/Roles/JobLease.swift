import Foundation

/// The right to run one of an app's background jobs (reconciliation) until `until`, taken by one
/// holder at a time, so that server instances sharing a database run a job once, not once each.
public struct JobLease: Hashable, Sendable {
    /// The job, e.g. `reconciliation`.
    public var job: LeasedJob
    /// Who holds it (an instance's random ID).
    public var holder: String
    /// When the lease lapses if its holder neither completes nor renews it (a crashed holder).
    public var until: Date
    /// How far the last completed run reached (the job's meaning: for reconciliation, the newest
    /// notification time read); `nil` before the first.
    public var mark: Date?

    public init(job: LeasedJob, holder: String, until: Date, mark: Date?) {
        self.job = job
        self.holder = holder
        self.until = until
        self.mark = mark
    }
}
