import EntitleCore
import Foundation

/// Who owns what (``IdentityStore``), consumers' cursors (``ConsumerCursors``) and job leases
/// (``JobLeases``).
extension MemoryLedgerStore {
    public func registerAccountToken(_ token: UUID, appUserID: AppUserID, at: Date) async throws(StorageError) -> AccountTokenRegistration {
        database.ledger(app) { ledger, _ in ledger.registerAccountToken(token, appUserID: appUserID, at: at) }
    }

    public func accountTokenOwner(_ token: UUID) async throws(StorageError) -> AppUserID? {
        database.read(app) { ledger in ledger.tokens[token] }
    }

    public func merge(anonymous: AppUserID, into known: AppUserID, at: Date) async throws(StorageError) -> MergeOutcome {
        database.ledger(app) { ledger, sequence in ledger.merge(anonymous: anonymous, into: known, at: at, sequence: &sequence) }
    }

    public func aliasTarget(_ appUserID: AppUserID) async throws(StorageError) -> AppUserID? {
        database.read(app) { ledger in ledger.aliases[appUserID] }
    }

    public func transfer(originalTransactionID: OriginalTransactionID, to appUserID: AppUserID, at: Date) async throws(StorageError) -> AppUserID? {
        database.ledger(app) { ledger, sequence in ledger.transfer(originalTransactionID, to: appUserID, at: at, sequence: &sequence) }
    }

    public func owner(originalTransactionID: OriginalTransactionID) async throws(StorageError) -> AppUserID? {
        database.read(app) { ledger in ledger.links[originalTransactionID] }
    }

    public func owners(originalTransactionIDs: Set<OriginalTransactionID>) async throws(StorageError) -> [OriginalTransactionID: AppUserID] {
        database.read(app) { ledger in
            var owners: [OriginalTransactionID: AppUserID] = [:]
            for original in originalTransactionIDs { if let owner = ledger.links[original] { owners[original] = owner } }
            return owners
        }
    }

    // MARK: - ConsumerCursors

    public func consumerEvents(
        _ consumer: LedgerConsumer, limit: Int, since: Date
    ) async throws(StorageError) -> (position: Int64, events: [(sequence: Int64, event: LedgerEvent)]) {
        let limit = max(1, limit)
        return database.ledger(app) { ledger, _ in
            let position: Int64
            if let known = ledger.cursors[consumer] {
                position = known
            } else {
                // A consumer seen first starts with what arrived at or after `since`.
                position = ledger.rows.last { $0.event.receivedAt < since }?.sequence ?? 0
                ledger.cursors[consumer] = position
            }
            let events = ledger.rows(after: position).prefix(limit).map { ($0.sequence, Self.bare($0.event)) }
            return (position, events)
        }
    }

    public func advanceConsumer(_ consumer: LedgerConsumer, from position: Int64, to sequence: Int64) async throws(StorageError) -> Bool {
        database.ledger(app) { ledger, _ in
            guard (ledger.cursors[consumer] ?? 0) == position else { return false }
            ledger.cursors[consumer] = sequence
            return true
        }
    }

    // MARK: - JobLeases

    public func acquireJob(_ job: LeasedJob, holder: String, now: Date, until: Date) async throws(StorageError) -> JobLease? {
        database.ledger(app) { ledger, _ in
            let run = ledger.jobs[job] ?? MemoryLedger.JobRun()
            if let current = run.holder, current != holder, let leaseUntil = run.until, leaseUntil > now.storedPrecision { return nil }
            ledger.jobs[job] = MemoryLedger.JobRun(mark: run.mark, holder: holder, until: until.storedPrecision)
            return JobLease(job: job, holder: holder, until: until, mark: run.mark)
        }
    }

    public func completeJob(_ lease: JobLease, mark: Date?) async throws(StorageError) {
        database.ledger(app) { ledger, _ in
            guard let run = ledger.jobs[lease.job], run.holder == lease.holder else { return }
            ledger.jobs[lease.job] = MemoryLedger.JobRun(mark: mark?.storedPrecision ?? run.mark, holder: nil, until: nil)
        }
    }
}
