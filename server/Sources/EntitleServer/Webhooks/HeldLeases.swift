import EntitleStorage
import Foundation
import NIOConcurrencyHelpers

/// The job leases this instance holds, kept between passes: a pass renews a lease only once half of it
/// has gone, instead of writing to the database at every step (on SQLite each write waits for the one
/// writer, as ingestion does). Released at graceful shutdown so another instance takes over at once; a
/// crashed holder's lapse as they always did.
final class HeldLeases: Sendable {
    private let leases = NIOLockedValueBox<[Key: JobLease]>([:])

    private struct Key: Hashable {
        let job: LeasedJob
        let holder: String
    }

    /// The lease `holder` holds on `job` with more than half of `duration` left at `now`.
    func lease(_ job: LeasedJob, holder: String, at now: Date, lasting duration: TimeInterval) -> JobLease? {
        guard let lease = leases.withLockedValue({ $0[Key(job: job, holder: holder)] }), lease.until.timeIntervalSince(now) > duration / 2 else {
            return nil
        }
        return lease
    }

    /// The lease `holder` was last given on `job`, however much of it is left.
    func kept(_ job: LeasedJob, holder: String) -> JobLease? {
        leases.withLockedValue { $0[Key(job: job, holder: holder)] }
    }

    /// Keeps what a take or renewal of `job` by `holder` returned (`nil`: another instance has it).
    func keep(_ lease: JobLease?, job: LeasedJob, holder: String) {
        leases.withLockedValue { $0[Key(job: job, holder: holder)] = lease }
    }

    /// The lease `holder` holds on `job`, forgotten here.
    func take(_ job: LeasedJob, holder: String) -> JobLease? {
        leases.withLockedValue { $0.removeValue(forKey: Key(job: job, holder: holder)) }
    }

    /// Every lease held, forgotten here.
    func takeAll() -> [JobLease] {
        leases.withLockedValue { leases in
            defer { leases = [:] }
            return Array(leases.values)
        }
    }
}
