/// What a delivery did.
public struct DeliveryReport: Hashable, Sendable {
    /// Distinct notifications acknowledged with 2xx.
    public var delivered = 0
    /// Extra deliveries of a notification already acknowledged.
    public var duplicates = 0
    /// Attempts answered with non-2xx or a failed connection, then retried.
    public var retries = 0
    /// Notifications never sent (``DeliveryOptions/dropProbability``): in the store's history only.
    public var dropped = 0

    public init() {}

    public static func + (lhs: Self, rhs: Self) -> Self {
        var sum = lhs
        sum.delivered += rhs.delivered
        sum.duplicates += rhs.duplicates
        sum.retries += rhs.retries
        sum.dropped += rhs.dropped
        return sum
    }
}
