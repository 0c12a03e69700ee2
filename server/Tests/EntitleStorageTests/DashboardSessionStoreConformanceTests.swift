import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// One suite, every engine: what any DashboardSessionStore must guarantee.
@Suite("DashboardSessionStore conformance")
struct DashboardSessionStoreConformanceTests {
    @Test("a session is kept by its hash, server-wide; revoked once; forgotten after it expires", arguments: StorageEngine.allCases)
    func lifecycle(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let sessions = root.forApp("com.example.one").dashboardSessionStore()
            let live = DashboardSession(createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(0.5))
            try await sessions.insertSession(hash: "a", live)
            try await sessions.insertSession(hash: "b", DashboardSession(createdAt: ReferenceTime.day(1), expiresAt: ReferenceTime.day(1.5)))
            // Server-wide: another app's view of the database sees the same sessions.
            #expect(try await root.forApp("com.example.two").dashboardSessionStore().session(hash: "a") == live)
            #expect(try await sessions.session(hash: "c") == nil)
            #expect(live.isLive(at: ReferenceTime.day(0.25)) && !live.isLive(at: ReferenceTime.day(0.5)))

            #expect(try await sessions.revokeSession(hash: "a", at: ReferenceTime.day(0.25)))
            #expect(try await sessions.revokeSession(hash: "a", at: ReferenceTime.day(0.3)) == false, "revoked once; the first instant stands")
            #expect(try await sessions.revokeSession(hash: "c", at: ReferenceTime.day(0.3)) == false)
            let revoked = try #require(try await sessions.session(hash: "a"))
            #expect(revoked.revokedAt == ReferenceTime.day(0.25) && !revoked.isLive(at: ReferenceTime.day(0.26)))

            #expect(try await sessions.deleteSessions(expiredBefore: ReferenceTime.day(1)) == 1)
            #expect(try await sessions.session(hash: "a") == nil)
            #expect(try await sessions.session(hash: "b") != nil)
        }
    }
}
