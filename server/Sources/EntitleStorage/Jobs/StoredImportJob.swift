import Foundation

/// A customer import an app started (`POST /v1/imports/jobs`, docs/import.md), as the database keeps it: what
/// to import, written once, and how far it got, rewritten after every batch. Both are the service's JSON.
public struct StoredImportJob: Hashable, Sendable {
    public enum State: String, Hashable, Sendable, CaseIterable {
        case running
        case completed
        case cancelled
    }

    public var id: String
    public var state: State
    /// The SHA-256 of the file it imports: starting the same file again joins the running job.
    public var digest: String
    /// The customers to import (the service's JSON).
    public var input: String
    /// How far it got (the service's JSON).
    public var progress: String
    public var createdAt: Date
    public var updatedAt: Date
    public var finishedAt: Date?

    public init(
        id: String, state: State, digest: String, input: String, progress: String, createdAt: Date, updatedAt: Date, finishedAt: Date? = nil
    ) {
        self.id = id
        self.state = state
        self.digest = digest
        self.input = input
        self.progress = progress
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.finishedAt = finishedAt
    }
}
