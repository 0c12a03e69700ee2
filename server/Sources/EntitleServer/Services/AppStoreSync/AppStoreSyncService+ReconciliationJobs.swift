import EntitleStorage
import EntitleWire
import Foundation
import Logging

extension AppStoreSyncService {
    /// The job kind a reconciliation pass a request started is recorded under.
    static let reconciliationJobKind = "reconciliation"
    /// A job still running this long after it started was abandoned: its instance stopped without
    /// shutting down (a crash, SIGKILL), and nothing will end it. Four times a pass's lease.
    static let abandonedAfter: TimeInterval = 3_600
    /// The error code of an abandoned job.
    public static let abandonedJobCode = "job.abandoned"

    /// Starts a reconciliation pass as owned work (``OwnedWork``), and answers at once with the job, which
    /// ``reconciliationJob(id:)`` reports on. Refused at once when the App Store Server API is not
    /// configured.
    public func startReconciliation(since: Date?) async throws(ServiceError) -> AdminJob {
        guard serverAPI != nil else {
            throw ServiceError(.appStoreNotConfigured, "\(bundleID) has no App Store Server API key (--app-store-key)")
        }
        let job = AdminJob(id: "job_" + UUID().uuidString.lowercased(), kind: Self.reconciliationJobKind, state: .running, holder: instanceID, createdAt: now())
        let jobs = adminJobs
        do {
            try await jobs.insertJob(job)
        } catch {
            throw ServiceError(error)
        }
        let started = context.work.start { [self] in
            var ended = job
            do {
                let report = try await reconcile(since: since, holder: instanceID)
                ended.state = .completed
                ended.result = String(decoding: try WireJSON.encoder.encode(ReconciliationResponse(report)), as: UTF8.self)
            } catch let error as ServiceError {
                ended.state = .failed
                (ended.errorCode, ended.errorMessage) = (error.code.rawValue, error.message)
            } catch {
                ended.state = .failed
                (ended.errorCode, ended.errorMessage) = (ServiceError.Code.internalError.rawValue, "the report did not encode")
            }
            ended.finishedAt = now()
            // In a task of its own: shutdown cancelling the pass must not cut this write short.
            let finished = ended
            await Task { [logger] in
                do throws(StorageError) {
                    try await jobs.finishJob(finished)
                } catch {
                    logger.error("a reconciliation job's end not recorded", metadata: ["job.id": "\(finished.id)", "error.code": "\(error.code)"])
                }
            }.value
        }
        guard started else {
            var refused = job
            (refused.state, refused.finishedAt) = (.failed, now())
            (refused.errorCode, refused.errorMessage) = (ServiceError.Code.shuttingDown.rawValue, "the server is shutting down")
            try? await jobs.finishJob(refused)
            throw ServiceError(.shuttingDown, "the server is shutting down; start the pass on another instance")
        }
        return job
    }

    /// The reconciliation job `id` of this app, as it stands.
    /// Starts a reconciliation pass (``startReconciliation(since:)``) and waits up to `wait` for it to
    /// end (a request's `Prefer: wait=N`): the job as it stands then.
    public func startReconciliation(since: Date?, waitingUpTo wait: Duration) async throws(ServiceError) -> AdminJob {
        var job = try await startReconciliation(since: since)
        let deadline = ContinuousClock.now + wait
        while job.state == .running, ContinuousClock.now < deadline {
            do {
                try await Task.sleep(for: .milliseconds(50))
            } catch {
                break
            }
            job = try await reconciliationJob(id: job.id)
        }
        return job
    }

    public func reconciliationJob(id: String) async throws(ServiceError) -> AdminJob {
        let job: AdminJob?
        do {
            job = try await adminJobs.job(id: id)
        } catch {
            throw ServiceError(error)
        }
        guard var job, job.kind == Self.reconciliationJobKind else { throw ServiceError(.notFound, "no reconciliation job \(id)") }
        if job.state == .running, now().timeIntervalSince(job.createdAt) > Self.abandonedAfter {
            // Told, not stored: should the pass still end, its record says how.
            job.state = .failed
            (job.errorCode, job.errorMessage) = (Self.abandonedJobCode, "the instance running the pass stopped without ending it; start another")
        }
        return job
    }
}
