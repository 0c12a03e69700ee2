import Foundation

/// What storage reports to whoever watches it (the server's metrics), without depending on them.
public struct StorageObserver: Sendable {
    /// What a database session does: one read statement, or a write transaction.
    public enum SessionKind: String, Sendable, CaseIterable {
        case read
        case write
    }

    /// A group commit ran: how many transactions it committed together (SQLite).
    public var groupCommitted: @Sendable (_ transactions: Int) -> Void
    /// A session got its connection after waiting `waited` (PostgreSQL: a pooled connection and its
    /// transaction; SQLite: the reader, or the writer's next group commit).
    public var sessionStarted: @Sendable (_ kind: SessionKind, _ waited: Duration) -> Void
    /// A session gave its connection back.
    public var sessionEnded: @Sendable (_ kind: SessionKind) -> Void

    public init(
        groupCommitted: @escaping @Sendable (_ transactions: Int) -> Void = { _ in },
        sessionStarted: @escaping @Sendable (_ kind: SessionKind, _ waited: Duration) -> Void = { _, _ in },
        sessionEnded: @escaping @Sendable (_ kind: SessionKind) -> Void = { _ in }
    ) {
        self.groupCommitted = groupCommitted
        self.sessionStarted = sessionStarted
        self.sessionEnded = sessionEnded
    }

    public static let none = StorageObserver()

    /// Runs `work` as a session of `kind` that was asked for at `asked`, reporting its wait and its end.
    func session<T>(_ kind: SessionKind, askedAt asked: ContinuousClock.Instant, _ work: () async throws(StorageError) -> T) async throws(StorageError) -> T {
        sessionStarted(kind, ContinuousClock.now - asked)
        defer { sessionEnded(kind) }
        return try await work()
    }
}
