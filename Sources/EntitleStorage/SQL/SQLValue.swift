import Foundation

/// A value bound to, or read from, a statement: all the ledger needs.
enum SQLValue: Hashable, Sendable {
    case text(String)
    case integer(Int64)
    case null

    var text: String? { if case .text(let value) = self { value } else { nil } }
    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    /// `(?, ?, …)` with `count` placeholders, for `IN` (at least one).
    static func placeholders(_ count: Int) -> String {
        "(" + Array(repeating: "?", count: max(1, count)).joined(separator: ", ") + ")"
    }

    /// A date stored as Unix milliseconds (``init(_:)-(Date?)``).
    var date: Date? { integer.map { Date(timeIntervalSince1970: Double($0) / 1000) } }

    init(_ text: String?) { self = text.map(SQLValue.text) ?? .null }
    init(_ integer: Int64?) { self = integer.map(SQLValue.integer) ?? .null }
    init(_ date: Date?) { self = date.map { .integer(Int64(($0.timeIntervalSince1970 * 1000).rounded())) } ?? .null }
}
