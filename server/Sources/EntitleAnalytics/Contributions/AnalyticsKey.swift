import EntitleCore
import EntitleWire

/// One aggregate cell: a metric on a day, by product, currency and cohort (empty when not applicable),
/// counted in one environment.
public struct AnalyticsKey: Hashable, Sendable, Comparable, Codable {
    /// The UTC day (see ``AnalyticsCalendar``).
    public var day: Int
    public var metric: AnalyticsMetric
    public var product: String
    public var currency: String
    public var cohort: String
    /// Whose cells: real customers' or testers' (see ``AnalyticsEnvironment``).
    public var environment: AnalyticsEnvironment

    public init(
        day: Int, metric: AnalyticsMetric, product: String = "", currency: String = "", cohort: String = "",
        environment: AnalyticsEnvironment = .production
    ) {
        self.day = day
        self.metric = metric
        self.product = product
        self.currency = currency
        self.cohort = cohort
        self.environment = environment
    }

    private enum CodingKeys: String, CodingKey {
        case day, metric, product, currency, cohort, environment
    }

    /// Keys encoded before environments existed are production's.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            day: try container.decode(Int.self, forKey: .day), metric: try container.decode(AnalyticsMetric.self, forKey: .metric),
            product: try container.decode(String.self, forKey: .product), currency: try container.decode(String.self, forKey: .currency),
            cohort: try container.decode(String.self, forKey: .cohort),
            environment: try container.decodeIfPresent(AnalyticsEnvironment.self, forKey: .environment) ?? .production)
    }

    /// The metric's name as storage writes it: prefixed `sandbox:` for a tester's cells, so the
    /// aggregates keep both environments in the same columns (and rows written before environments
    /// existed read as production).
    public var storedMetric: String {
        environment == .production ? metric.rawValue : environment.storagePrefix + metric.rawValue
    }

    /// The metric and environment of a stored name (``storedMetric``); `nil` for an unknown metric.
    public static func parseStoredMetric(_ name: String) -> (metric: AnalyticsMetric, environment: AnalyticsEnvironment)? {
        let sandbox = AnalyticsEnvironment.sandbox.storagePrefix
        if name.hasPrefix(sandbox) {
            return AnalyticsMetric(rawValue: String(name.dropFirst(sandbox.count))).map { ($0, .sandbox) }
        }
        return AnalyticsMetric(rawValue: name).map { ($0, .production) }
    }

    /// By day, metric name, product, currency, cohort, then environment; each compared only when those before tie.
    public static func < (lhs: AnalyticsKey, rhs: AnalyticsKey) -> Bool {
        if lhs.day != rhs.day { return lhs.day < rhs.day }
        if lhs.metric != rhs.metric { return lhs.metric.rawValue < rhs.metric.rawValue }
        if lhs.product != rhs.product { return lhs.product < rhs.product }
        if lhs.currency != rhs.currency { return lhs.currency < rhs.currency }
        if lhs.cohort != rhs.cohort { return lhs.cohort < rhs.cohort }
        return lhs.environment.rawValue < rhs.environment.rawValue
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

    /// The cells a report scoped to `scope` counts, each environment's together (every key's
    /// environment set to production).
    public func scoped(to scope: AnalyticsScope) -> AnalyticsCells {
        // Every cell a customer's (most apps, every refresh's checks): nothing to take out or fold together.
        if scope != .sandbox, allSatisfy({ $0.key.environment == .production }) { return self }
        var scoped = AnalyticsCells(minimumCapacity: count)
        for (key, value) in self where key.environment.isCounted(in: scope) {
            var key = key
            key.environment = .production
            scoped.add(value, to: key)
        }
        return scoped
    }

    /// The same cells counted in `environment`.
    public func placed(in environment: AnalyticsEnvironment) -> AnalyticsCells {
        guard environment != .production else { return self }
        var placed = AnalyticsCells(minimumCapacity: count)
        for (key, value) in self {
            var key = key
            key.environment = environment
            placed[key] = value
        }
        return placed
    }

    /// The cells that change from `old` to `self`: what to add to an aggregate holding `old`.
    public func difference(from old: AnalyticsCells) -> AnalyticsCells {
        var delta = self
        delta.add(old, sign: -1)
        return delta
    }
}
