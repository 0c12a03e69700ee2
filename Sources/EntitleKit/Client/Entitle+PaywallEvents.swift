import EntitleAPI
import EntitleCore
import EntitleWire
import Foundation

extension Entitle {
    /// Records what the app's paywall did (shown, closed, a purchase started, cancelled, failed,
    /// bought) for the current user: checked first (`PaywallEvent.problem`), written to a queue on
    /// disk, then sent with what else waits, in reports of up to 100. Stored once by the event's ID,
    /// however often it is sent; offline it waits and is sent when the server is reachable again.
    /// - Returns: how many events still wait for the network (0: sent).
    /// - Throws: ``EntitleError`` `request.invalid` for an event no server takes; the server's code
    ///   (`paywall.unknownOffering`, `purchase.unknownProduct`) when it refuses this one.
    @discardableResult
    public func recordPaywallEvent(_ event: PaywallEvent) async throws(EntitleError) -> Int {
        let event = event.core(now: configuration.now())
        if let problem = event.problem { throw EntitleError(.invalidRequest, problem) }
        paywallEvents.enqueue(QueuedPaywallEvent(appUserID: appUserID, event: event))
        let sent = await PaywallEventSender(queue: paywallEvents, api: api).send()
        if let mine = sent.refused.first(where: { $0.event.id == event.id }) { throw mine.error }
        return paywallEvents.items().count
    }

    /// Sends the waiting paywall events, in reports of up to 100 per user; a report the server
    /// refuses is sent again event by event, and the events it refuses are dropped (they would be
    /// refused again) and returned with the server's refusal.
    /// - Throws: ``EntitleError`` `network` when the server can't be reached; the rest stays queued.
    @discardableResult
    public func flushPaywallEvents() async throws(EntitleError) -> [(event: PaywallEvent, error: EntitleError)] {
        let sent = await PaywallEventSender(queue: paywallEvents, api: api).send()
        if let failure = sent.failure { throw failure }
        return sent.refused
    }
}
