import EntitleAPI
import EntitleCore
@testable import EntitleKit
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

/// EntitleKit's paywall events: queued offline like usage, sent in reports, stored once.
@Suite("Entitle: paywall events")
struct PaywallEventQueueTests {
    static func event(_ kind: EntitleKit.PaywallEvent.Kind, at: Date?, offering: String = Catalog.standardOfferingID) -> EntitleKit.PaywallEvent {
        EntitleKit.PaywallEvent(kind, offeringID: offering, paywallID: "conversations-wall", trigger: "quota_exhausted", feature: "conversations", at: at)
    }

    @Test("events recorded offline wait on disk and are sent once in reports of up to 100; a refused one throws the server's code")
    func queuedThenSent() async throws {
        try await EntitleTests.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "reader")
            let events = (0..<150).map { index in Self.event(index.isMultiple(of: 2) ? .shown : .closed, at: server.clock.now) }
            for (index, event) in events.enumerated() {
                #expect(try await offline.recordPaywallEvent(event) == index + 1)
            }
            let online = try Entitle(configuration: server.configuration(folder: folder), appUserID: "reader")
            #expect(try await online.flushPaywallEvents().isEmpty)
            #expect(try await online.recordPaywallEvent(events[0]) == 0)
            let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey, transport: EntitleTests.Patient())
            let report = try await api.recordPaywallEvents("reader", events: events.prefix(100).map { $0.core(now: .distantPast) })
            #expect(report == PaywallEventsResponse(recorded: 0, duplicates: 100))
            #expect(try await api.recordPaywallEvents("reader", events: events.suffix(50).map { $0.core(now: .distantPast) }) == PaywallEventsResponse(recorded: 0, duplicates: 50))

            let unknown = Self.event(.shown, at: nil, offering: "no-such-offering")
            let refused = await EntitleDefectsTests.outcome { () async throws(EntitleError) in try await online.recordPaywallEvent(unknown) }
            guard case .failure(let error) = refused else {
                Issue.record("an unknown offering is refused")
                return
            }
            #expect(error.serverCode == "paywall.unknownOffering" && error.status == 400)
            var broken = Self.event(.purchased, at: server.clock.now)
            broken.productID = nil
            await #expect(throws: EntitleError.self) { try await online.recordPaywallEvent(broken) }
            #expect(try await online.flushPaywallEvents().isEmpty)
        }
    }
}
