import EntitleCore

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

    /// By day, metric name, product, currency, then cohort; each compared only when those before tie.
    public static func < (lhs: AnalyticsKey, rhs: AnalyticsKey) -> Bool {
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        if lhs.metric != rhs.metric { return lhs.metric.rawValue < rhs.metric.rawValue }
        if lhs.product != rhs.product { return lhs.product < rhs.product }
        if lhs.currency != rhs.currency { return lhs.currency < rhs.currency }
        return lhs.cohort < rhs.cohort
    }
}

/// Aggregate cells and their values.
public typealias AnalyticsCells = [AnalyticsKey: Int64]

extension Dictionary where Key == AnalyticsKey, Value == Int64 {
    /// Adds `value` to `key`'s cell, dropping cells that reach zero.
    public mutating func add(_ value: Int64, to key: AnalyticsKey) {
        guard value != 0 else { return }
        let sum = (self[key] ?? 0).saturatingAdding(value)
        self[key] = sum == 0 ? nil : sum
    }

    /// Adds every cell of `other`, times `sign`.
    public mutating func add(_ other: AnalyticsCells, sign: Int64 = 1) {
        for (key, value) in other {
            let (product, overflowed) = value.multipliedReportingOverflow(by: sign)
            add(overflowed ? .max : product, to: key)
        }
    }

    /// The cells that change from `old` to `self`: what to add to an aggregate holding `old`.
    public func difference(from old: AnalyticsCells) -> AnalyticsCells {
        var delta = self
        delta.add(old, sign: -1)
        return delta
    }
}
