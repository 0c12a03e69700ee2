import Foundation

/// Long admin work (a reconciliation pass) that a request starts and the caller polls: kept in the
/// ledger's database, so any instance answers the poll.
public struct AdminJob: Hashable, Sendable {
    public enum State: String, Sendable, Hashable, CaseIterable {
        case running, completed, failed
    }

    public var id: String
    public var kind: String
    public var state: State
    /// The server instance running it.
    public var holder: String
    public var createdAt: Date
    public var finishedAt: Date?
    /// What the work answered (JSON), once completed.
    public var result: String?
    /// Why it failed: a stable code and a message.
    public var errorCode: String?
    public var errorMessage: String?

    public init(
        id: String, kind: String, state: State, holder: String, createdAt: Date, finishedAt: Date? = nil, result: String? = nil,
        errorCode: String? = nil, errorMessage: String? = nil
    ) {
        self.id = id
        self.kind = kind
        self.state = state
        self.holder = holder
        self.createdAt = createdAt
        self.finishedAt = finishedAt
        self.result = result
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
