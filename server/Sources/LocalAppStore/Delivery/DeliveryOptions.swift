/// How the local App Store delivers notifications.
public struct DeliveryOptions: Sendable {
    /// Waits before each retry after a non-2xx answer or a failed connection; when they run out the
    /// notification is reported undelivered. Apple retries over days (1, 12, 24, 48, 72 hours); locally
    /// the same shape runs in seconds.
    public var retryDelays: [Duration]
    /// Deliver each batch in a random order, to show that the ledger folds in Apple's order, not
    /// arrival order.
    public var shuffle: Bool
    /// The chance that a notification is delivered a second time, to show idempotency.
    public var duplicateProbability: Double
    /// The chance that a notification is never delivered (a server down for days, a wrong URL): it
    /// stays in the store's Notification History, where reconciliation finds it.
    public var dropProbability: Double
    /// Seeds the shuffling, duplication and dropping.
    public var seed: UInt64

    public init(
        retryDelays: [Duration] = [.milliseconds(100), .milliseconds(500), .seconds(2), .seconds(5), .seconds(10)], shuffle: Bool = false,
        duplicateProbability: Double = 0, dropProbability: Double = 0, seed: UInt64 = 1
    ) {
        self.dropProbability = dropProbability
        self.retryDelays = retryDelays
        self.shuffle = shuffle
        self.duplicateProbability = duplicateProbability
        self.seed = seed
    }
}
