import Foundation

/// A statement the ledger runs on every read of a subscriber or every append, which an engine keeps
/// prepared on each of its connections: PostgreSQL parses and plans it once per connection, under
/// ``name``, where an unnamed statement is parsed and planned on every run (most of a short read's
/// time in the database); SQLite keeps every statement by its text anyway. Its text uses `?`
/// placeholders, as every statement does, and each placeholder is bound with the same kind of value on
/// every run (PostgreSQL fixes the parameters' types at the first).
protocol KeptStatement: Sendable {
    /// Unique among the kept statements (``PostgresEngine/keptStatements``), at most 63 bytes
    /// (PostgreSQL's longest name).
    static var name: String { get }
    static var sql: String { get }
}
