import Foundation

/// A reconciliation pass started by `POST /v1/reconciliation` and polled at `GET /v1/reconciliation/{jobID}`.
public struct ReconciliationJobResponse: Codable, Hashable, Sendable {
    public var id: String
    public var app: String
    /// `running`, `completed` or `failed`.
    public var state: JobState
    public var createdAt: Date
    public var finishedAt: Date?
    /// What the pass found and changed, once completed.
    public var report: ReconciliationResponse?
    /// Why it failed (`appStore.unavailable`, `server.shuttingDown`, …), once failed.
    public var error: ErrorResponse.Detail?

    public init(
        id: String, app: String, state: JobState, createdAt: Date, finishedAt: Date? = nil, report: ReconciliationResponse? = nil,
        error: ErrorResponse.Detail? = nil
    ) {
        self.id = id
        self.app = app
        self.state = state
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.report = report
        self.error = error
    }
}
