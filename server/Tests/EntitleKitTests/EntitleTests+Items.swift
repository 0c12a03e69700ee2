import EntitleCore
import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension EntitleTests {
    @Test("seed 004's child devices from the app: Family pairs 5, a 6th is refused with its reason; offline, the lapse pauses the newest as the server would")
    func items() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await server.purchase("com.screentimerewards.family.monthly", for: "parent-9", original: "k9", expires: ReferenceTime.day(3))
            let entitle = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-9")
            for index in 1...5 {
                server.clock.set(ReferenceTime.day(0).addingTimeInterval(Double(index) * 60))
                #expect(try await entitle.registerItem("ipad-\(index)", name: "iPad \(index)", limit: "childDevices").isRegistered)
            }
            let sixth = try await entitle.registerItem("ipad-6", limit: "childDevices")
            // Family is the most any plan pairs: nothing to buy, so no paywall.
            #expect(!sixth.isRegistered && sixth.access.reason == .limitExceeded(maximum: 5) && sixth.access.paywall == nil)
            try await entitle.renameItem("ipad-1", to: "Mia's iPad", limit: "childDevices")
            try await entitle.removeItem("ipad-5", limit: "childDevices")
            let online = try await entitle.items(limit: "childDevices")
            #expect(online.map(\.id) == ["ipad-1", "ipad-2", "ipad-3", "ipad-4"] && online.first?.name == "Mia's iPad")
            #expect(online.allSatisfy { !$0.isPaused })
            // What the server says of the same instant, item for item.
            #expect(try await entitle.customerInfo(fetchPolicy: .fetchCurrent).items == online)
            await #expect(throws: EntitleError.self) { try await entitle.registerItem("has space", limit: "childDevices") }

            // Offline after the subscription ended: seed 004's 7 days of Individual access pair 1 device, then none.
            let day5 = ReferenceTime.day(5)
            let grace = try Entitle(configuration: server.configuration(folder: folder, online: false, now: { day5 }), appUserID: "parent-9")
            #expect(try await grace.items(limit: "childDevices").filter(\.isPaused).map(\.id) == ["ipad-2", "ipad-3", "ipad-4"])
            let day12 = ReferenceTime.day(12)
            var trusting = server.configuration(folder: folder, online: false, now: { day12 })
            trusting.maximumCacheAge = 30 * 86_400
            let lockout = try Entitle(configuration: trusting, appUserID: "parent-9")
            #expect(try await lockout.items(limit: "childDevices").allSatisfy(\.isPaused))
            // The server agrees once it is asked at that instant.
            server.clock.set(day5)
            let served = try await entitle.customerInfo(fetchPolicy: .fetchCurrent).items
            #expect(served.filter(\.isPaused).map(\.id) == ["ipad-2", "ipad-3", "ipad-4"])
        }
    }
}
