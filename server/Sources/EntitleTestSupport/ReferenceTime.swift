import Foundation

/// The fixed instant tests are written against, so nothing depends on when they run:
/// 2026-01-05 00:00:00 UTC, a Monday.
public enum ReferenceTime {
    public static let start = Date(timeIntervalSince1970: 1_767_571_200)

    /// `days` after the reference instant (negative for before).
    public static func day(_ days: Double) -> Date {
        start.addingTimeInterval(days * 86_400)
    }

    /// Parses an ISO 8601 instant such as `2026-01-31T23:30:00Z`; traps on a typo in a test.
    public static func instant(_ text: String) -> Date {
        guard let date = try? Date(text, strategy: .iso8601) else {
            preconditionFailure("not an ISO 8601 instant: \(text)")
        }
        return date
    }
}
