/// One aggregate cell: a metric on a day, by product, currency and cohort (empty when not applicable).
public struct AnalyticsKey: Hashable, Sendable, Comparable, Codable {
    /// The UTC day (see ``AnalyticsCalendar``).
    public var day: Int
    public var metric: AnalyticsMetric
    public var product: String
    public var currency: String
    public var cohort: String

    public init(day: Int, metric: AnalyticsMetric, product: String = "", currency: String = "", cohort: String = "") {
        self.day = day
        self.metric = metric
        self.product = product
        self.currency = currency
        self.cohort = cohort
    }

    public static func < (lhs: AnalyticsKey, rhs: AnalyticsKey) -> Bool {
        (lhs.day, lhs.metric.rawValue, lhs.product, lhs.currency, lhs.cohort)
            < (rhs.day, rhs.metric.rawValue, rhs.product, rhs.currency, rhs.cohort)
    }
}

/// Aggregate cells and their values.
public typealias AnalyticsCells = [AnalyticsKey: Int64]

extension Dictionary where Key == AnalyticsKey, Value == Int64 {
    /// Adds `value` to `key`'s cell, dropping cells that reach zero.
    public mutating func add(_ value: Int64, to key: AnalyticsKey) {
        guard value != 0 else { return }
        let sum = (self[key] ?? 0) + value
        self[key] = sum == 0 ? nil : sum
    }

    /// Adds every cell of `other`, times `sign`.
    public mutating func add(_ other: AnalyticsCells, sign: Int64 = 1) {
        for (key, value) in other { add(value * sign, to: key) }
    }

    /// The cells that change from `old` to `self`: what to add to an aggregate holding `old`.
    public func difference(from old: AnalyticsCells) -> AnalyticsCells {
        var delta = self
        delta.add(old, sign: -1)
        return delta
    }
}
