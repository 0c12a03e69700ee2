import EntitleCore
import Foundation

/// A row a statement returned, its columns read by name as the types the ledger stores them as. A
/// column the statement doesn't return, or returns as another type, is a `storage.corruptRecord` naming
/// it, never a silent `nil`: only a column that is NULL reads as `nil`, through the `nullable…` readers.
struct SQLRow: Sendable, ExpressibleByDictionaryLiteral {
    private let columns: [String: SQLValue]

    init(_ columns: [String: SQLValue]) { self.columns = columns }
    init(dictionaryLiteral elements: (String, SQLValue)...) { self.columns = Dictionary(elements, uniquingKeysWith: { _, last in last }) }

    /// Whether the statement returned `column` (for a reader shared by statements that select it and
    /// statements that leave it out).
    func has(_ column: String) -> Bool { columns[column] != nil }

    /// The column's value as stored (NULL included).
    func value(_ column: String) throws(StorageError) -> SQLValue {
        guard let value = columns[column] else { throw StorageError(.corruptRecord, "a row has no column \(column)") }
        return value
    }

    func nullableInteger(_ column: String) throws(StorageError) -> Int64? {
        switch try value(column) {
        case .integer(let integer): integer
        case .null: nil
        case .text: throw StorageError(.corruptRecord, "\(column) is text where an integer is stored")
        }
    }

    func nullableText(_ column: String) throws(StorageError) -> String? {
        switch try value(column) {
        case .text(let text): text
        case .null: nil
        case .integer: throw StorageError(.corruptRecord, "\(column) is an integer where text is stored")
        }
    }

    func integer(_ column: String) throws(StorageError) -> Int64 {
        guard let integer = try nullableInteger(column) else { throw StorageError(.corruptRecord, "\(column) is NULL") }
        return integer
    }

    func text(_ column: String) throws(StorageError) -> String {
        guard let text = try nullableText(column) else { throw StorageError(.corruptRecord, "\(column) is NULL") }
        return text
    }

    /// A date stored as Unix milliseconds.
    func nullableDate(_ column: String) throws(StorageError) -> Date? {
        try nullableInteger(column).map { Date(timeIntervalSince1970: Double($0) / 1000) }
    }

    func date(_ column: String) throws(StorageError) -> Date {
        guard let date = try nullableDate(column) else { throw StorageError(.corruptRecord, "\(column) is NULL") }
        return date
    }

    /// An identifier stored as its text.
    func nullableID<Identifier: StringIdentifier>(_ column: String, as _: Identifier.Type = Identifier.self) throws(StorageError) -> Identifier? {
        try nullableText(column).map { Identifier(rawValue: $0) }
    }

    func id<Identifier: StringIdentifier>(_ column: String, as _: Identifier.Type = Identifier.self) throws(StorageError) -> Identifier {
        Identifier(rawValue: try text(column))
    }
}
