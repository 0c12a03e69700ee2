import Foundation

/// What a simulated population did, and how what the store expects compares with what the
/// subscriber API reports.
public struct PopulationSummary: Sendable {
    public struct Mismatch: Hashable, Sendable {
        public let appUserID: String
        public let originalTransactionID: String
        public let expected: String
        public let reported: String
    }

    public var start: Date
    public var end: Date
    public var subscribers = 0
    public var familyMembers = 0
    public var appTrialsStarted = 0
    public var purchases = 0
    /// Of those, yearly subscriptions billed monthly under a 12-month commitment.
    public var commitmentPurchases = 0
    public var renewals = 0
    public var refunds = 0
    /// Of those, the ones Apple prorated.
    public var proratedRefunds = 0
    /// The catalog's limit the apps registered items against (seed 004's `childDevices`), if it has one.
    public var itemLimit: String?
    /// Items (child devices) the apps registered that the server took, and refused at the plan's limit.
    public var devicesRegistered = 0
    public var devicesRefused = 0
    /// Registered devices paused at the end (a downgrade or a lapse left the limit below them).
    public var devicesPaused = 0
    /// Subscribers whose devices don't hold together (a paused device older than an active one, active
    /// ones beyond the limit, or room left while one is paused).
    public var deviceMismatches: [String] = []
    /// Paywall events the simulated apps reported.
    public var paywallEvents = 0
    /// People an experiment served its control, and another variant.
    public var experimentControl = 0
    public var experimentTreated = 0
    public var notifications = DeliveryReport()
    /// Purchase chains by the state the store's own model expects at `end`.
    public var expected: [String: Int] = [:]
    /// The same chains by the state `GET /v1/subscribers/{id}` reports.
    public var reported: [String: Int] = [:]
    /// Subscribers with at least one active entitlement, as the API reports.
    public var entitledSubscribers = 0
    /// App-managed trial phases, as the API reports.
    public var appTrialPhases: [String: Int] = [:]
    public var mismatches: [Mismatch] = []

    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }

    /// The summary as printed by `entitle demo`.
    public var text: String {
        func table(_ counts: [String: Int]) -> String {
            counts.sorted { $0.key < $1.key }.map { "    \($0.key.padding(toLength: 20, withPad: " ", startingAt: 0)) \($0.value)" }.joined(separator: "\n")
        }
        let chains = expected.values.reduce(0, +)
        let items = itemLimit.map { limit in
            "\n  \(limit) registered \(devicesRegistered), refused at the plan's limit \(devicesRefused), paused now \(devicesPaused)"
                + (deviceMismatches.isEmpty ? "" : "; \(deviceMismatches.count) subscribers' items inconsistent with the limit")
        } ?? ""
        return """
            Simulated \(subscribers) subscribers (\(familyMembers) of them family members) from \(start.formatted(.iso8601)) to \(end.formatted(.iso8601)):
              app-managed trials started \(appTrialsStarted), purchases \(purchases) (\(commitmentPurchases) billed monthly with a 12-month commitment), renewals \(renewals), refunds \(refunds) (\(proratedRefunds) prorated), paywall events \(paywallEvents)
              notifications delivered \(notifications.delivered) (duplicates \(notifications.duplicates), retries \(notifications.retries)\(notifications.dropped > 0 ? ", never delivered \(notifications.dropped)" : ""))
              purchase chains by state (the store's expectation):
            \(table(expected))
              purchase chains by state (GET /v1/subscribers/{id}):
            \(table(reported))
              subscribers with an active entitlement: \(entitledSubscribers)\(items)
              app-managed trial phases: \(appTrialPhases.sorted { $0.key < $1.key }.map { "\($0.key) \($0.value)" }.joined(separator: ", "))
              \(mismatches.isEmpty ? "the API agrees with the store on all \(chains) purchase chains" : "\(mismatches.count) of \(chains) purchase chains disagree")
            """
    }
}
