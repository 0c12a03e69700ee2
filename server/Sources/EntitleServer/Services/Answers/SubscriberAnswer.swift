import EntitleCore
import Foundation

/// What the service knows of a subscriber at one instant: their facts and the access resolved from
/// them (with their households and the open-access window). Controllers map it to the wire.
public struct SubscriberAnswer: Sendable {
    public let facts: SubscriberFacts
    public let access: SubscriberAccess
    /// The appAccountToken the app passes to StoreKit for this subscriber.
    public let appAccountToken: UUID?
    /// When asked for: the access now and after the next changes, each with when it starts and ends.
    public var accessPeriods: [(from: Date, until: Date?, access: SubscriberAccess)] = []

    public init(facts: SubscriberFacts, access: SubscriberAccess, appAccountToken: UUID? = nil) {
        self.facts = facts
        self.access = access
        self.appAccountToken = appAccountToken
    }
}
