import EntitleCore
import Foundation

/// What webhooks last reported about a subscriber: the facts and the instant their answer was resolved
/// at. The next change is reported against it.
public struct WebhookSnapshot: Hashable, Sendable {
    public var facts: SubscriberFacts
    public var at: Date

    public init(facts: SubscriberFacts, at: Date) {
        self.facts = facts
        self.at = at
    }
}
