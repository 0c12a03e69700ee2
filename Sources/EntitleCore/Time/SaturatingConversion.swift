import Foundation

extension FixedWidthInteger {
    /// `value` rounded by `rule` and clamped to this type's range; 0 for NaN. For numbers that come
    /// from input (an instant, a price over a duration), where `Self(value)` would trap.
    @inlinable public init(saturating value: Double, rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        let rounded = value.rounded(rule)
        if rounded.isNaN {
            self = 0
        } else if rounded >= Double(Self.max) {
            self = .max
        } else if rounded <= Double(Self.min) {
            self = .min
        } else {
            self = Self(rounded)
        }
    }

    /// `self + other`, or the nearest bound of this type's range when that overflows.
    @inlinable public func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflowed) = addingReportingOverflow(other)
        guard overflowed else { return sum }
        return other > 0 ? .max : .min
    }

    /// Adds `other`, stopping at the nearest bound of this type's range.
    @inlinable public mutating func addSaturating(_ other: Self) {
        self = saturatingAdding(other)
    }

    /// `self - other`, or the nearest bound of this type's range when that overflows.
    @inlinable public func saturatingSubtracting(_ other: Self) -> Self {
        let (difference, overflowed) = subtractingReportingOverflow(other)
        guard overflowed else { return difference }
        return other < 0 ? .max : .min
    }
}

extension Date {
    /// Milliseconds since 1970, rounded by `rule`, clamped to `Int64`'s range (never trapping, whatever
    /// the instant).
    @inlinable public func millisecondsSince1970(rounding rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) -> Int64 {
        Int64(saturating: timeIntervalSince1970 * 1000, rounding: rule)
    }
}
