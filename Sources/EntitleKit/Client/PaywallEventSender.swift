import EntitleAPI
import EntitleCore
import EntitleWire
import Foundation

/// Sends the paywall events waiting on disk: by user, in order, in reports of up to
/// `PaywallEvent.maximumBatch`. A report the server refuses is sent again event by event, and the
/// events it refuses are dropped (they would be refused again) and returned with the server's refusal.
struct PaywallEventSender {
    let queue: DiskQueue<QueuedPaywallEvent>
    let api: SubscriberAPIClient

    /// The events refused, and why sending stopped early (the network, a busy server), if it did.
    func send() async -> (refused: [(event: PaywallEvent, error: EntitleError)], failure: EntitleError?) {
        var refused: [(event: PaywallEvent, error: EntitleError)] = []
        let waiting = queue.items()
        var users: [String] = []
        for item in waiting where !users.contains(item.appUserID) { users.append(item.appUserID) }
        for user in users {
            let theirs = waiting.filter { $0.appUserID == user }
            for start in stride(from: 0, to: theirs.count, by: EntitleCore.PaywallEvent.maximumBatch) {
                let report = Array(theirs[start..<min(start + EntitleCore.PaywallEvent.maximumBatch, theirs.count)])
                switch await send(report, for: user) {
                case .stored: queue.remove(report)
                case .unreachable(let error): return (refused, error)
                case .refused(let error) where report.count == 1:
                    queue.remove(report)
                    refused.append((PaywallEvent(report[0].event), error))
                case .refused:
                    // A refused report of several is sent again event by event, to keep the good ones.
                    for item in report {
                        switch await send([item], for: user) {
                        case .stored: queue.remove([item])
                        case .unreachable(let error): return (refused, error)
                        case .refused(let error):
                            queue.remove([item])
                            refused.append((PaywallEvent(item.event), error))
                        }
                    }
                }
            }
        }
        return (refused, nil)
    }

    private enum Outcome {
        case stored
        case unreachable(EntitleError)
        case refused(EntitleError)
    }

    private func send(_ report: [QueuedPaywallEvent], for user: String) async -> Outcome {
        do {
            _ = try await api.recordPaywallEvents(user, events: report.map(\.event))
            return .stored
        } catch {
            let failure = Entitle.error(error)
            return failure.isRetryable ? .unreachable(failure) : .refused(failure)
        }
    }
}
