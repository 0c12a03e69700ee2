/// A use of a metered feature waiting for the network.
struct QueuedUse: Codable, Hashable, Sendable {
    var appUserID: String
    var feature: String
    var amount: Int
    var idempotencyKey: String
}
