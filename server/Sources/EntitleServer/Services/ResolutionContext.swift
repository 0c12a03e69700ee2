import EntitleCore
import Foundation

/// Everything an answer about a subscriber depends on, read once: their facts, the households
/// they belong to, the open-access window, and the instant.
struct ResolutionContext: Sendable {
    let resolver: EntitlementResolver
    let facts: SubscriberFacts
    let households: [SubscriberFacts]
    let openAccess: OpenAccessWindow?
    let at: Date

    /// Resolves `facts` (the subscriber's as read, unless given, e.g. inside a transaction).
    func resolve(_ facts: SubscriberFacts? = nil) -> SubscriberAccess {
        resolver.resolve(facts ?? self.facts, households: households, openAccess: openAccess, at: at)
    }
}
