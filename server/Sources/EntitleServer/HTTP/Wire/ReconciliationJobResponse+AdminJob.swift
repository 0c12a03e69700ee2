import EntitleStorage
import EntitleWire
import Foundation

extension ReconciliationJobResponse {
    /// The job as the API reports it, with its report when it has one.
    init(_ job: AdminJob, app: String) throws(ServiceError) {
        self.init(id: job.id, app: app, state: JobState(rawValue: job.state.rawValue), createdAt: job.createdAt, finishedAt: job.finishedAt)
        if let result = job.result {
            do {
                report = try WireJSON.decoder.decode(ReconciliationResponse.self, from: Data(result.utf8))
            } catch {
                throw ServiceError(.internalError, "a reconciliation job's report does not read", underlying: error)
            }
        }
        if let code = job.errorCode { self.error = ErrorResponse.Detail(code: code, message: job.errorMessage ?? "") }
    }

    /// Whether the job still runs.
    var isRunning: Bool { state == .running }
}
