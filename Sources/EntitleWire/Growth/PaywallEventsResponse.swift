import Foundation

/// How many of a report's paywall events were stored now, and how many had been before.
public struct PaywallEventsResponse: Codable, Hashable, Sendable {
    public var recorded: Int
    public var duplicates: Int

    public init(recorded: Int, duplicates: Int) {
        self.recorded = recorded
        self.duplicates = duplicates
    }
}
