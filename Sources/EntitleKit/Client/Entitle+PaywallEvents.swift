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
        if let problem = event.problem { throw EntitleError(.invalidRequest, problem) }
        paywallEvents.enqueue(QueuedPaywallEvent(appUserID: appUserID, event: event))
        let refused = await sendPaywallEvents()
        if let mine = refused.first(where: { $0.event.id == event.id }) { throw mine.error }
        return paywallEvents.items().count
    }

    /// Sends the waiting paywall events, in reports of up to 100 per user; a report the server
    /// refuses is sent again event by event, and the events it refuses are dropped (they would be
    /// refused again) and returned with the server's refusal.
    /// - Throws: ``EntitleError`` `network` when the server can't be reached; the rest stays queued.
    @discardableResult
    public func flushPaywallEvents() async throws(EntitleError) -> [(event: PaywallEvent, error: EntitleError)] {
        let refused = await sendPaywallEvents()
        if let failure = lastPaywallFailure { throw failure }
        return refused.map { ($0.event, $0.error) }
    }

    /// The waiting events by user, in order, in reports of up to `PaywallEvent.maximumBatch`.
    private func sendPaywallEvents() async -> [(event: PaywallEvent, error: EntitleError)] {
        lastPaywallFailure = nil
        var refused: [(event: PaywallEvent, error: EntitleError)] = []
        let waiting = paywallEvents.items()
        var users: [String] = []
        for item in waiting where !users.contains(item.appUserID) { users.append(item.appUserID) }
        for user in users {
            let theirs = waiting.filter { $0.appUserID == user }
            for start in stride(from: 0, to: theirs.count, by: PaywallEvent.maximumBatch) {
                let report = Array(theirs[start..<min(start + PaywallEvent.maximumBatch, theirs.count)])
                switch await send(report, for: user) {
                case .stored: paywallEvents.remove(report)
                case .unreachable(let error):
                    lastPaywallFailure = error
                    return refused
                case .refused(let error) where report.count == 1:
                    paywallEvents.remove(report)
                    refused.append((report[0].event, error))
                case .refused:
                    for item in report {
                        switch await send([item], for: user) {
                        case .stored: paywallEvents.remove([item])
                        case .unreachable(let error):
                            lastPaywallFailure = error
                            return refused
                        case .refused(let error):
                            paywallEvents.remove([item])
                            refused.append((item.event, error))
                        }
                    }
                }
            }
        }
        return refused
    }

    private enum ReportOutcome {
        case stored
        case unreachable(EntitleError)
        case refused(EntitleError)
    }

    private func send(_ report: [QueuedPaywallEvent], for user: String) async -> ReportOutcome {
        do {
            _ = try await api.recordPaywallEvents(user, events: report.map(\.event))
            return .stored
        } catch where error.code == .network || error.status.map({ $0 == 429 || $0 >= 500 }) ?? false {
            return .unreachable(Self.error(error))
        } catch {
            return .refused(Self.error(error))
        }
    }
}
