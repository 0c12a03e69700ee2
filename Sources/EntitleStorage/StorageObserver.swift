import Foundation

/// What storage reports to whoever watches it (the server's metrics), without depending on them.
public struct StorageObserver: Sendable {
    /// A group commit ran: how many transactions it committed together (SQLite).
    public var groupCommitted: @Sendable (_ transactions: Int) -> Void

    public init(groupCommitted: @escaping @Sendable (_ transactions: Int) -> Void = { _ in }) {
        self.groupCommitted = groupCommitted
    }

    public static let none = StorageObserver()
}
