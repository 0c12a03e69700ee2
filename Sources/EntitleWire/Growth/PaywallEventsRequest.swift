import EntitleCore
import Foundation

/// `POST /v1/subscribers/{appUserID}/paywall-events`: what the app's paywall did, 1 to 100 events.
public struct PaywallEventsRequest: Codable, Hashable, Sendable {
    public var events: [PaywallEvent]

    public init(events: [PaywallEvent]) {
        self.events = events
    }
}
