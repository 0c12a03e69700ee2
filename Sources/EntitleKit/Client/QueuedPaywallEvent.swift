import EntitleCore

/// A paywall event waiting for the network, with the user it happened to.
struct QueuedPaywallEvent: Codable, Hashable, Sendable {
    var appUserID: String
    var event: EntitleCore.PaywallEvent
}
