import AppStoreModels
import EntitleCore
@testable import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import NIOConcurrencyHelpers
import Testing

extension PurchaseTests {
    /// ScreenTimeRewards with seed 004's wish (its example sets it): 24 hours of access from a purchase the
    /// device verified while the server couldn't be reached.
    static func provisionalCatalog() -> Catalog {
        let catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        #expect(catalog.policies.provisionalGrantHours == 24)
        return catalog
    }

    @Test("the server unreachable right after a purchase: under the app's policy the purchase grants its entitlements for 24 hours, then nothing")
    func provisionalGrant() async throws {
        try await EntitleTests.run(catalog: Self.provisionalCatalog()) { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            // The policy arrives signed in an answer the app cached while online.
            let seen = try await Self.client(server, store, folder: folder).customerInfo(fetchPolicy: .fetchCurrent)
            #expect(seen.response.provisionalGrant?.hours == 24 && seen.response.provisionalGrant?.entitlements[Self.family] == ["family"])
            #expect(seen.response.provisionalGrant?.access?[Self.family]?.limit("childDevices") == .limited(5))
            #expect(!seen.isActive("family", at: server.clock.now))

            let offline = try Self.client(server, store, folder: folder, online: false)
            let outcome = await offline.purchase(Self.family)
            guard case .success(let info) = outcome else {
                Issue.record("expected a provisional success, got \(outcome.code)")
                return
            }
            #expect(info.source == .cache && info.isActive("family", at: server.clock.now))
            #expect(info.provisionalEntitlements.map(\.id) == ["family"])
            #expect(info.provisionalEntitlements.first?.until == server.clock.now.addingTimeInterval(24 * 3_600))
            #expect(store.finished.withLockedValue { $0 }.isEmpty, "unfinished until the server has it")
            // The gate grants what Family grants: five child devices (the cached answer allowed none).
            #expect(try await offline.access("childDevices", usage: 5, fetchPolicy: .cacheOnly).isAllowed)
            #expect(try await !offline.access("childDevices", usage: 6, fetchPolicy: .cacheOnly).isAllowed)
            // A relaunch still offline keeps it; a day later it grants nothing.
            let relaunched = try Self.client(server, store, folder: folder, online: false)
            #expect(try await relaunched.customerInfo(fetchPolicy: .cacheOnly).isActive("family", at: server.clock.now))
            #expect(try await relaunched.access("childDevices", usage: 5, fetchPolicy: .cacheOnly).isAllowed)
            server.clock.set(server.clock.now.addingTimeInterval(24 * 3_600 + 1))
            let later = try await relaunched.customerInfo(fetchPolicy: .cacheOnly)
            #expect(!later.isActive("family", at: server.clock.now) && later.provisionalEntitlements.isEmpty)
            #expect(try await !relaunched.access("childDevices", usage: 5, fetchPolicy: .cacheOnly).isAllowed)
        }
    }

    @Test("a provisional grant ends when the server confirms the purchase, and is withdrawn when the server refuses it; without the policy there is none")
    func provisionalConfirmedOrWithdrawn() async throws {
        try await EntitleTests.run(catalog: Self.provisionalCatalog()) { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            _ = try await Self.client(server, store, folder: folder).customerInfo(fetchPolicy: .fetchCurrent)
            guard case .success = await (try Self.client(server, store, folder: folder, online: false)).purchase(Self.family) else {
                Issue.record("expected a provisional success")
                return
            }
            let grants = ProvisionalGrantFile(folder: folder)
            #expect(grants.load(appUserID: "parent-1").count == 1)
            // Back online, the unfinished purchase is delivered: the server's answer grants it, the provisional grant is gone.
            let online = try Self.client(server, store, folder: folder)
            _ = try await online.restore()
            let confirmed = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            #expect(confirmed.isActive("family", at: server.clock.now) && confirmed.provisionalEntitlements.isEmpty)
            #expect(grants.load(appUserID: "parent-1").isEmpty)

            // A second purchase granted provisionally, then refused by the server (signed by a key it doesn't trust).
            let other = try TestPKI()
            let stranger = ScriptedStore(pki: other, apple: server.apple, clock: server.clock)
            _ = try await Self.client(server, stranger, folder: folder, user: "parent-2").customerInfo(fetchPolicy: .fetchCurrent)
            let strangerOffline = try Self.client(server, stranger, folder: folder, online: false, user: "parent-2")
            guard case .success(let provisional) = await strangerOffline.purchase(Self.family)
            else {
                Issue.record("expected a provisional success")
                return
            }
            #expect(provisional.isActive("family", at: server.clock.now))
            _ = try? await Self.client(server, stranger, folder: folder, user: "parent-2").restore()
            #expect(grants.load(appUserID: "parent-2").isEmpty)
            let after = try await Self.client(server, stranger, folder: folder, user: "parent-2").customerInfo(fetchPolicy: .fetchCurrent)
            #expect(!after.isActive("family", at: server.clock.now))
        }
        // Apple's default: no policy, no provisional access.
        var apple = Fixtures.exampleCatalog("ScreenTimeRewards")
        apple.policies = .apple
        try await EntitleTests.run(catalog: apple) { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let store = ScriptedStore(pki: server.pki, apple: server.apple, clock: server.clock)
            _ = try await Self.client(server, store, folder: folder).customerInfo(fetchPolicy: .fetchCurrent)
            let offline = try Self.client(server, store, folder: folder, online: false)
            #expect(await offline.purchase(Self.family).code == "purchase.network")
        }
    }
}
