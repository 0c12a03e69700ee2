import Foundation

/// How webhooks are sent: each attempt's timeout, how many of an endpoint's deliveries are in flight
/// at once, the back-off between attempts (with jitter) after which a delivery fails for good and
/// waits for a replay, and how long a failing endpoint rests.
public struct WebhookDeliveryPolicy: Sendable {
    public var timeout: Duration
    public var concurrencyPerEndpoint: Int
    /// The wait before each retry, in order: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h, 12 h,
    /// 16 h, 24 h by default, about 2.8 days over 12 attempts.
    public var retryDelays: [TimeInterval]
    /// Each wait is stretched or shrunk by up to this share, so retries of many deliveries spread out.
    public var jitter: Double
    /// After a failed attempt an endpoint rests 30 s, doubling with each failure in a row up to this;
    /// one delivery probes it when the rest is over, and a success ends it.
    public var maximumRest: TimeInterval

    public init(
        timeout: Duration = .seconds(10), concurrencyPerEndpoint: Int = 16,
        retryDelays: [TimeInterval] = [30, 120, 600, 1_800, 3_600, 7_200, 14_400, 28_800, 43_200, 57_600, 86_400],
        jitter: Double = 0.2, maximumRest: TimeInterval = 3_600
    ) {
        self.timeout = timeout
        self.concurrencyPerEndpoint = max(1, concurrencyPerEndpoint)
        self.retryDelays = retryDelays
        self.jitter = min(max(jitter, 0), 0.9)
        self.maximumRest = maximumRest
    }

    /// When to try again after `attempt` (1-based) failed at `at`; `nil` when that was the last.
    public func retry(after attempt: Int, at: Date, random: Double = Double.random(in: -1...1)) -> Date? {
        guard attempt >= 1, attempt <= retryDelays.count else { return nil }
        return at.addingTimeInterval(retryDelays[attempt - 1] * (1 + jitter * random))
    }

    /// How long an endpoint rests after its `failures`-th failure in a row.
    public func rest(afterFailures failures: Int) -> TimeInterval {
        min(maximumRest, 30 * pow(2, Double(min(max(failures - 1, 0), 20))))
    }
}
