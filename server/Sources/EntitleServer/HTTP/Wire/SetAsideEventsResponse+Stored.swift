import EntitleCore
import EntitleStorage
import EntitleWire
import Foundation
import Hummingbird

extension SetAsideEventsResponse: @retroactive ResponseEncodable {
    init(_ events: [SetAsideEvent]) {
        self.init(events: events.map { event in
            Event(consumer: event.consumer, eventID: event.eventID.uuidString, appUserID: event.appUserID?.rawValue, reason: event.reason, setAsideAt: event.setAsideAt)
        })
    }
}
