import Foundation

/// `GET /v1/set-aside-events`: ledger events a background consumer (analytics) could not process and
/// left out, newest first, each with the reason. The ledger keeps the events themselves unchanged.
public struct SetAsideEventsResponse: Codable, Hashable, Sendable {
    public struct Event: Codable, Hashable, Sendable {
        /// The consumer that set the event aside (`analytics`).
        public var consumer: String
        public var eventID: String
        public var appUserID: String?
        /// Which value, and why it can't be processed.
        public var reason: String
        public var setAsideAt: Date

        public init(consumer: String, eventID: String, appUserID: String?, reason: String, setAsideAt: Date) {
            self.consumer = consumer
            self.eventID = eventID
            self.appUserID = appUserID
            self.reason = reason
            self.setAsideAt = setAsideAt
        }
    }

    public var events: [Event]

    public init(events: [Event]) { self.events = events }
}
