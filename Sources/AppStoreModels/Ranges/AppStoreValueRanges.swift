import Foundation

/// The values Entitle accepts in Apple's payloads, checked when a payload is verified, before any
/// work is done with it: an instant, an amount or a count outside these ranges is refused however it
/// was signed, so nothing downstream (certificate validation, the fold, analytics, reminders) ever
/// computes with it.
///
/// The ranges are wide enough for every real payload and narrow enough that sums, differences and
/// calendar arithmetic over them cannot overflow or leave the ranges of `Date`, `Int` and X.509 times.
public enum AppStoreValueRanges {
    /// Instants: from 0000-01-01 to 2200-01-01 (UTC, proleptic Gregorian). Apple's dates are
    /// milliseconds since 1970; a subscription's end lies a few years ahead at most, and Xcode's
    /// StoreKit Testing signs app transactions whose `originalPurchaseDate` lies in year 0. Every
    /// instant in the range is one X.509 can write and analytics can name.
    public static let instants: ClosedRange<Date> = Date(timeIntervalSince1970: -62_167_219_200)...Date(timeIntervalSince1970: 7_258_118_400)
    /// ``instants`` in words, for messages.
    public static let instantsDescription = "0000-01-01…2200-01-01"
    /// Prices and amounts in milliunits of a currency: 0 to 10¹³ (ten billion units, far above the
    /// App Store's highest price in any currency).
    public static let amounts: ClosedRange<Int64> = 0...10_000_000_000_000
    /// Counts Apple reports (a purchase's quantity, billing periods, a summary's counts).
    public static let counts: ClosedRange<Int64> = 0...1_000_000_000
    /// A refunded share in thousandths of a percent.
    public static let revocationPercentages: ClosedRange<Int64> = 0...100_000

    /// Whether `date` is an instant Entitle computes with.
    @inlinable public static func isPlausible(_ date: Date) -> Bool {
        instants.contains(date)
    }
}

/// A value of one of Apple's payloads outside ``AppStoreValueRanges``: which field, and what it holds.
public struct OutOfRangeValue: Hashable, Sendable, CustomStringConvertible {
    /// The field's name as Apple spells it, prefixed by its container (`transaction.expiresDate`).
    public var field: String
    /// What the field holds, and what it may hold.
    public var reason: String

    public init(field: String, reason: String) {
        self.field = field
        self.reason = reason
    }

    public var description: String { "\(field) \(reason)" }

    /// `field`'s instant when it lies outside ``AppStoreValueRanges/instants``, in milliseconds since
    /// 1970 as Apple writes them; `nil` when it is inside (or absent).
    public static func instant(_ field: String, _ value: Date?) -> OutOfRangeValue? {
        guard let value, !AppStoreValueRanges.isPlausible(value) else { return nil }
        let milliseconds = value.timeIntervalSince1970 * 1000
        return OutOfRangeValue(
            field: field,
            reason: "is \(abs(milliseconds) < 1e18 ? "\(Int64(milliseconds))" : "\(milliseconds)") ms since 1970, outside \(AppStoreValueRanges.instantsDescription)")
    }
}

/// Collects the first value outside its range.
struct RangeCheck {
    let container: String
    private(set) var problem: OutOfRangeValue?

    init(_ container: String) { self.container = container }

    mutating func instant(_ field: String, _ value: Date?) {
        guard problem == nil else { return }
        problem = OutOfRangeValue.instant("\(container).\(field)", value)
    }

    mutating func amount(_ field: String, _ value: Int64?) {
        check(field, value, in: AppStoreValueRanges.amounts, what: "milliunits")
    }

    mutating func count<T: BinaryInteger>(_ field: String, _ value: T?) {
        check(field, value.map { Int64(clamping: $0) }, in: AppStoreValueRanges.counts, what: "a count")
    }

    mutating func check(_ field: String, _ value: Int64?, in range: ClosedRange<Int64>, what: String) {
        guard problem == nil, let value, !range.contains(value) else { return }
        problem = OutOfRangeValue(field: "\(container).\(field)", reason: "is \(value), outside \(range.lowerBound)…\(range.upperBound) (\(what))")
    }
}
