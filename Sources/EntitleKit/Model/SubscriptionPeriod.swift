import Foundation

/// A length of time a subscription or an offer runs: `value` of `unit` (1 month, 1 year, 3 days).
public struct SubscriptionPeriod: Sendable, Hashable, CustomStringConvertible {
    public enum Unit: String, Sendable, Hashable, CaseIterable {
        case day, week, month, year
    }

    public var value: Int
    public var unit: Unit

    public init(value: Int, unit: Unit) {
        self.value = value
        self.unit = unit
    }

    /// Reads the API's ISO 8601 duration of one unit (`P1M`, `P1Y`, `P3D`, `P2W`); `nil` for anything else.
    init?(iso8601 text: String) {
        guard text.count >= 3, text.count <= 6, text.hasPrefix("P"), let letter = text.last,
            let value = Int(text.dropFirst().dropLast()), value > 0
        else { return nil }
        switch letter {
        case "D": unit = .day
        case "W": unit = .week
        case "M": unit = .month
        case "Y": unit = .year
        default: return nil
        }
        self.value = value
    }

    /// `1 month`, `3 days`.
    public var description: String { "\(value) \(unit.rawValue)\(value == 1 ? "" : "s")" }
}
