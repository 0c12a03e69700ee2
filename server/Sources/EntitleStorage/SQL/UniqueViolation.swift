import Foundation

/// A statement broke a unique constraint: the table and the constrained columns, as the engine named
/// them. Each engine attaches it to the failed statement's ``StorageError`` (as its `underlying` error),
/// so the ledger can tell which of its constraints was broken without reading engine-specific messages.
struct UniqueViolation: Error, Equatable {
    let table: String
    let columns: [String]

    /// SQLite's message for a broken unique constraint: `UNIQUE constraint failed: t.a, t.b`.
    init?(sqliteMessage message: String) {
        let prefix = "UNIQUE constraint failed: "
        guard message.hasPrefix(prefix) else { return nil }
        let qualified = message.dropFirst(prefix.count).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        let parts = qualified.map { $0.split(separator: ".", maxSplits: 1) }
        guard let table = parts.first?.first, parts.allSatisfy({ $0.count == 2 && $0[0] == table }) else { return nil }
        self.table = String(table)
        self.columns = parts.map { String($0[1]) }
    }

    /// PostgreSQL's fields for a unique violation (SQLSTATE 23505): the table, and the detail
    /// `Key (a, b)=(…) already exists.`
    init?(postgresTable table: String?, detail: String?) {
        guard let table, let detail, detail.hasPrefix("Key ("), let end = detail.range(of: ")=") else { return nil }
        let names = detail[detail.index(detail.startIndex, offsetBy: 5)..<end.lowerBound]
        self.table = table
        self.columns = names.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
    }

    init(table: String, columns: [String]) {
        self.table = table
        self.columns = columns
    }
}

extension StorageError {
    /// This failure as ``Code/eventIDTaken`` (of the event `id`, when the caller knows which) when it
    /// broke the uniqueness of `ledger_events.id`, else itself.
    func eventIDTaken(_ id: UUID?) -> StorageError {
        guard let violation = underlying as? UniqueViolation, violation == UniqueViolation(table: "ledger_events", columns: ["id"]) else { return self }
        return .eventIDTaken(id, underlying: violation)
    }
}
