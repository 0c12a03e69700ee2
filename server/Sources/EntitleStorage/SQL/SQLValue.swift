import EntitleCore
import Foundation

/// A value bound to, or read from, a statement: all the ledger needs.
enum SQLValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case null

    var text: String? { if case .text(let value) = self { value } else { nil } }
    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// `values` as an `IN` list: `(?, ?, …)` and the values to bind to it, padded to the next power of
    /// two by repeating the last value (which leaves the set the same), so statements built for any
    /// number of values come in a few shapes, and a connection keeps a few prepared statements, not one
    /// per count.
    static func inList(_ values: [SQLValue]) -> (placeholders: String, values: [SQLValue]) {
        guard let last = values.last else { return ("(NULL)", []) }
        let count = values.count <= 1 ? 1 : 1 << (Int.bitWidth - (values.count - 1).leadingZeroBitCount)
        let padded = values + Array(repeating: last, count: count - values.count)
        return ("(" + Array(repeating: "?", count: count).joined(separator: ", ") + ")", padded)
    }

    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ integer: Int64?) { self = integer.map(SQLValue.integer) ?? .null }
    init(_ date: Date?) { self = date.map { .integer($0.millisecondsSince1970()) } ?? .null }
    /// An identifier stored as its text.
    init<Identifier: StringIdentifier>(_ id: Identifier?) { self = id.map { .text($0.rawValue) } ?? .null }
    static func id<Identifier: StringIdentifier>(_ id: Identifier) -> SQLValue { .text(id.rawValue) }
    /// The text as an identifier.
    func id<Identifier: StringIdentifier>(_: Identifier.Type = Identifier.self) -> Identifier? { text.map { Identifier(rawValue: $0) } }
}
