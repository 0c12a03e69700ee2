import EntitleCore
import Foundation

/// What the service knows of a subscriber at one instant: their facts and the access resolved from
/// them (with their households and the open-access window). Controllers map it to the wire.
public struct SubscriberAnswer: Sendable {
    public let facts: SubscriberFacts
    public let access: SubscriberAccess

    public init(facts: SubscriberFacts, access: SubscriberAccess) {
        self.facts = facts
        self.access = access
    }
}
