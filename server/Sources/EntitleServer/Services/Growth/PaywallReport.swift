/// What became of a report of paywall events.
public struct PaywallReport: Hashable, Sendable {
    /// Events stored now.
    public var recorded = 0
    /// Events already stored (reported before).
    public var duplicates = 0

    public init(recorded: Int = 0, duplicates: Int = 0) {
        self.recorded = recorded
        self.duplicates = duplicates
    }
}
