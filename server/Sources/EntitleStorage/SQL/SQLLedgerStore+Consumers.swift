import EntitleCore
import Foundation

/// Consumers' cursors (``ConsumerCursors``) and job leases (``JobLeases``).
extension SQLLedgerStore {
    func consumerEvents(
        _ consumer: LedgerConsumer, limit: Int, since: Date
    ) async throws(StorageError) -> (position: Int64, events: [(sequence: Int64, event: LedgerEvent)]) {
        let cursor = LedgerCursor(app: app, consumer: consumer)
        let horizon = try await engine.readHorizon()
        let app = app
        let limit = max(1, limit)
        return try await engine.transaction { session throws(StorageError) in
            let known = try await session.execute(
                "SELECT sequence FROM ledger_cursors WHERE app_id = ? AND consumer = ?", [.id(app), .text(consumer.rawValue)]
            ).first?.nullableInteger("sequence")
            let position: Int64
            if let known {
                position = known
            } else {
                position = try await session.execute(
                    "SELECT MAX(sequence) AS start FROM ledger_events WHERE app_id = ? AND received_at < ? AND sequence <= ?",
                    [.id(app), SQLValue(since), .integer(horizon)]
                ).first?.nullableInteger("start") ?? 0
                try await cursor.advance(to: position, session)
            }
            let rows = try await session.execute(
                "SELECT sequence, event FROM ledger_events WHERE app_id = ? AND sequence > ? AND sequence <= ? ORDER BY sequence LIMIT ?",
                [.id(app), .integer(position), .integer(horizon), .integer(Int64(limit))])
            let events = try StoredJSON.decodeEvents(rows)
            return (position, try zip(rows, events).map { row, event throws(StorageError) in (try row.integer("sequence"), event) })
        }
    }

    func advanceConsumer(_ consumer: LedgerConsumer, from position: Int64, to sequence: Int64) async throws(StorageError) -> Bool {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock(.consumer(app, consumer))
            let current = try await session.execute(
                "SELECT sequence FROM ledger_cursors WHERE app_id = ? AND consumer = ?", [.id(app), .text(consumer.rawValue)]
            ).first?.nullableInteger("sequence") ?? 0
            guard current == position else { return false }
            try await LedgerCursor(app: app, consumer: consumer).advance(to: sequence, session)
            return true
        }
    }

    func acquireJob(_ job: LeasedJob, holder: String, now: Date, until: Date) async throws(StorageError) -> JobLease? {
        let app = app
        return try await engine.transaction { session throws(StorageError) in
            try await session.lock(.job(app, job))
            let row = try await session.execute(
                "SELECT mark, holder, lease_until FROM job_runs WHERE app_id = ? AND job = ?", [.id(app), .text(job.rawValue)]
            ).first
            if let row, let current = try row.nullableText("holder"), current != holder, let leaseUntil = try row.nullableInteger("lease_until"),
                leaseUntil > SQLValue(now).integer ?? 0
            {
                return nil
            }
            _ = try await session.execute(
                """
                INSERT INTO job_runs (app_id, job, mark, holder, lease_until) VALUES (?, ?, NULL, ?, ?)
                ON CONFLICT (app_id, job) DO UPDATE SET holder = excluded.holder, lease_until = excluded.lease_until
                """, [.id(app), .text(job.rawValue), .text(holder), SQLValue(until)])
            let mark = try row?.nullableDate("mark")
            return JobLease(job: job, holder: holder, until: until, mark: mark)
        }
    }

    func completeJob(_ lease: JobLease, mark: Date?) async throws(StorageError) {
        let app = app
        try await engine.transaction { session throws(StorageError) in
            _ = try await session.execute(
                "UPDATE job_runs SET mark = COALESCE(?, mark), holder = NULL, lease_until = NULL WHERE app_id = ? AND job = ? AND holder = ?",
                [SQLValue(mark), .id(app), .text(lease.job.rawValue), .text(lease.holder)])
        }
    }
}
