import Foundation

/// A price as the catalog states it: an exact decimal amount, and the same in milliunits as Apple's
/// payloads carry prices (7.99 is 7990).
public struct Price: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var amount: Decimal
    /// ISO 4217 currency code, when known.
    public var currency: String?

    public init(amount: Decimal, currency: String? = nil) {
        self.amount = amount
        self.currency = currency
    }

    /// Parses a display price such as `7.99` or `67` (digits with at most one decimal point).
    public init?(_ text: String, currency: String? = nil) {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), !parts[0].isEmpty,
            parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isNumber } }),
            parts.count == 1 || (1...3).contains(parts[1].count),
            let amount = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX"))
        else { return nil }
        self.init(amount: amount, currency: currency)
    }

    public var milliunits: Int64 {
        var scaled = amount * 1000
        var rounded = Decimal()
        NSDecimalRound(&rounded, &scaled, 0, .plain)
        return NSDecimalNumber(decimal: rounded).int64Value
    }

    /// The amount with at least two decimals, as a price is displayed (`67.00`).
    public var formattedAmount: String {
        var text = "\(amount)"
        if let dot = text.firstIndex(of: ".") {
            if text.distance(from: dot, to: text.endIndex) == 2 { text += "0" }
        } else {
            text += ".00"
        }
        return text
    }

    public var description: String {
        currency.map { "\(formattedAmount) \($0)" } ?? formattedAmount
    }

    public static func < (lhs: Price, rhs: Price) -> Bool { lhs.amount < rhs.amount }
}
