import EntitleCore
import EntitleWire
import Foundation

/// What Entitle knows of the app user: the server's answer, where it came from and how old it is.
public struct CustomerInfo: Sendable, Hashable {
    public enum Source: String, Sendable, Hashable {
        /// Just fetched from the server.
        case server
        /// From the signed cache (the server could not be asked, or the policy allowed it).
        case cache
    }

    /// The server's answer, as `GET /v1/subscribers/{id}` gives it.
    public var subscriber: SubscriberResponse
    public var source: Source
    /// The server's clock when it answered.
    public var serverTime: Date { subscriber.serverTime }
    /// How old the answer is on the device clock.
    public var age: TimeInterval
    /// Queued uses the server refused when they were sent, since the last update (the answer counts
    /// only what the server counted).
    public var refusedUses: [RefusedUse] = []

    /// The entitlements active now: on a cached answer, only those whose own expiry has not passed.
    public func activeEntitlements(at now: Date) -> [EntitlementInfo] {
        subscriber.entitlements.filter { $0.isActive && ($0.expiresAt.map { now < $0 } ?? true) }
    }

    /// The gate the server signed for the access period that contains `now`, if the answer carries one.
    func gate(at now: Date) -> AccessGate? {
        subscriber.accessPeriods.first { $0.from <= now && ($0.until.map { now < $0 } ?? true) }?.gate
    }

    /// Whether the entitlement `id` is active at `now`.
    public func isActive(_ id: String, at now: Date) -> Bool { activeEntitlements(at: now).contains { $0.id == id } }
}
