import EntitleCore
import EntitleStorage
import Foundation

/// What an answer about a subscriber reads beside their projection, over the roles that hold it: the
/// households they belong to, and the open-access switch. Written once for the services' answers
/// (``SubscriberReading``, ``EventAppending``) and the webhook step.
enum AnswerReads {
    /// The projections of the households `facts`' subscriber belongs to at `at`.
    static func households(of facts: SubscriberFacts, at: Date, in projections: any ProjectionStore) async throws(ServiceError) -> [SubscriberFacts] {
        var households: [SubscriberFacts] = []
        for id in facts.householdIDs(at: at) {
            do {
                if let household = try await projections.projection(appUserID: id) { households.append(household) }
            } catch {
                throw ServiceError(error)
            }
        }
        return households
    }

    /// The global open-access window in force (or scheduled), if any.
    static func openAccess(in events: any EventLog) async throws(ServiceError) -> OpenAccessWindow? {
        let event: LedgerEvent?
        do {
            event = try await events.latestGlobalEvent(source: .openAccess)
        } catch {
            throw ServiceError(error)
        }
        return openAccessWindow(event)
    }

    /// The open-access window an `openAccessSet` event sets, if it is one.
    static func openAccessWindow(_ event: LedgerEvent?) -> OpenAccessWindow? {
        guard case .openAccessSet(let window)? = event?.payload else { return nil }
        return window
    }
}
