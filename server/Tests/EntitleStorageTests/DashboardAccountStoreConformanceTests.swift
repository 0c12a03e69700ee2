import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// One suite, every engine: what any DashboardAccountStore and PasskeyStore must guarantee.
@Suite("DashboardAccountStore conformance")
struct DashboardAccountStoreConformanceTests {
    static func account(_ id: String, _ email: String, at day: Double) -> DashboardAccount {
        DashboardAccount(id: id, email: email, name: "Name of \(id)", role: .viewer, passwordHash: "$scrypt$hash-of-\(id)", createdAt: ReferenceTime.day(day))
    }

    @Test("an invitation is taken once, before it expires, server-wide; it creates the account, or gives an existing one its role", arguments: StorageEngine.allCases)
    func invitations(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one").dashboardAccountStore()
            let invitation = DashboardInvitation(
                email: "jane@example.com", role: .support, invitedBy: "cli", createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(7))
            try await store.insertInvitation(hash: "h1", invitation)
            #expect(try await root.forApp("com.example.two").dashboardAccountStore().invitation(hash: "h1") == invitation)
            #expect(try await store.invitation(hash: "none") == nil)

            let jane = try #require(try await store.acceptInvitation(hash: "h1", account: Self.account("acct_1", "ignored@example.com", at: 1), at: ReferenceTime.day(1)))
            #expect(jane.email == "jane@example.com" && jane.role == .support && jane.id == "acct_1" && jane.passwordHash == "$scrypt$hash-of-acct_1")
            #expect(try await store.acceptInvitation(hash: "h1", account: Self.account("acct_2", "x@example.com", at: 1), at: ReferenceTime.day(1)) == nil, "once")
            #expect(try await store.invitation(hash: "h1")?.acceptedAt == ReferenceTime.day(1))
            #expect(try await store.account(email: "jane@example.com") == jane)
            #expect(try await store.account(id: "acct_1") == jane)

            // Expired: refused.
            try await store.insertInvitation(
                hash: "h2", DashboardInvitation(email: "late@example.com", role: .admin, invitedBy: "cli", createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(2)))
            #expect(try await store.acceptInvitation(hash: "h2", account: Self.account("acct_3", "late@example.com", at: 3), at: ReferenceTime.day(3)) == nil)
            // Jane again as admin: her account, the new role, her password kept when none is given.
            try await store.insertInvitation(
                hash: "h3", DashboardInvitation(email: "jane@example.com", role: .admin, invitedBy: "account:owner@example.com", createdAt: ReferenceTime.day(4), expiresAt: ReferenceTime.day(5)))
            var noPassword = Self.account("acct_4", "jane@example.com", at: 4)
            noPassword.passwordHash = nil
            let promoted = try #require(try await store.acceptInvitation(hash: "h3", account: noPassword, at: ReferenceTime.day(4)))
            #expect(promoted.id == "acct_1" && promoted.role == .admin && promoted.passwordHash == "$scrypt$hash-of-acct_1")
            #expect(try await store.accounts().map(\.email) == ["jane@example.com"])
        }
    }

    @Test("failed sign-ins add up and lock as the rule says; a success clears them; updates return the account before", arguments: StorageEngine.allCases)
    func signIns(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one").dashboardAccountStore()
            try await store.insertInvitation(
                hash: "h", DashboardInvitation(email: "kim@example.com", role: .viewer, invitedBy: "cli", createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(1)))
            let kim = try #require(try await store.acceptInvitation(hash: "h", account: Self.account("acct_k", "kim@example.com", at: 0), at: ReferenceTime.day(0)))
            let rule = SignInLockout(threshold: 3, first: 60, longest: 600)
            var after: DashboardAccount?
            for attempt in 1...4 {
                after = try await store.recordSignIn(accountID: kim.id, succeeded: false, at: ReferenceTime.day(1), lockout: rule)
                #expect(after?.failedSignIns == attempt)
            }
            // Third failure: 60 s; fourth: 120 s.
            #expect(after?.lockedUntil == ReferenceTime.day(1).addingTimeInterval(120))
            #expect(try await root.forApp("com.example.two").dashboardAccountStore().account(id: kim.id)?.failedSignIns == 4, "server-wide")
            let success = try #require(try await store.recordSignIn(accountID: kim.id, succeeded: true, at: ReferenceTime.day(2), lockout: rule))
            #expect(success.failedSignIns == 0 && success.lockedUntil == nil && success.lastSignInAt == ReferenceTime.day(2))
            #expect(try await store.recordSignIn(accountID: "acct_none", succeeded: false, at: ReferenceTime.day(2), lockout: rule) == nil)

            var changed = success
            changed.role = .owner
            changed.disabledAt = ReferenceTime.day(3)
            let before = try #require(try await store.updateAccount(changed))
            #expect(before.role == .viewer && before.disabledAt == nil)
            let now = try #require(try await store.account(id: kim.id))
            #expect(now.role == .owner && now.disabledAt == ReferenceTime.day(3) && !now.isActive(at: ReferenceTime.day(3)))
            var unknown = changed
            unknown.id = "acct_none"
            #expect(try await store.updateAccount(unknown) == nil)
        }
    }

    @Test("a person's session is refused once they are signed out everywhere; a key's session is not theirs", arguments: StorageEngine.allCases)
    func personSessions(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let sessions = root.forApp("com.example.one").dashboardSessionStore()
            try await sessions.insertSession(hash: "p1", DashboardSession(createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(1), accountID: "acct_1"))
            try await sessions.insertSession(hash: "p2", DashboardSession(createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(1), accountID: "acct_1"))
            try await sessions.insertSession(hash: "k", DashboardSession(createdAt: ReferenceTime.day(0), expiresAt: ReferenceTime.day(1)))
            #expect(try await sessions.session(hash: "p1")?.accountID == "acct_1")
            #expect(try await sessions.session(hash: "k")?.accountID == nil)
            #expect(try await sessions.revokeSessions(accountID: "acct_1", at: ReferenceTime.day(0.5)) == 2)
            #expect(try await sessions.session(hash: "p2")?.isLive(at: ReferenceTime.day(0.6)) == false)
            #expect(try await sessions.session(hash: "k")?.isLive(at: ReferenceTime.day(0.6)) == true)
            #expect(try await sessions.revokeSession(hash: "k", at: ReferenceTime.day(0.7)))
            #expect(try await sessions.deleteSessions(expiredBefore: ReferenceTime.day(2)) == 3)
        }
    }

    @Test("passkeys by credential, per account; a challenge is taken once; expired challenges are forgotten", arguments: StorageEngine.allCases)
    func passkeys(engine: StorageEngine) async throws {
        try await engine.withStore { root in
            let store = root.forApp("com.example.one").passkeyStore()
            let key = DashboardPasskey(
                credentialID: "Y3JlZA", accountID: "acct_1", publicKey: Data([4] + Array(repeating: 7, count: 64)), signCount: 3, name: "laptop",
                createdAt: ReferenceTime.day(0))
            try await store.insertPasskey(key)
            #expect(try await root.forApp("com.example.two").passkeyStore().passkey(credentialID: "Y3JlZA") == key)
            #expect(try await store.passkeys(accountID: "acct_1") == [key])
            #expect(try await store.passkeys(accountID: "acct_2").isEmpty)
            try await store.usePasskey(credentialID: "Y3JlZA", signCount: 9, at: ReferenceTime.day(1))
            let used = try #require(try await store.passkey(credentialID: "Y3JlZA"))
            #expect(used.signCount == 9 && used.lastUsedAt == ReferenceTime.day(1))
            #expect(try await store.deletePasskey(credentialID: "Y3JlZA", accountID: "acct_2") == false, "only its own account removes it")
            #expect(try await store.deletePasskey(credentialID: "Y3JlZA", accountID: "acct_1"))
            #expect(try await store.passkey(credentialID: "Y3JlZA") == nil)

            let challenge = DashboardChallenge(purpose: .registration, accountID: "acct_1", expiresAt: ReferenceTime.day(0.1))
            try await store.insertChallenge(hash: "c1", challenge, now: ReferenceTime.day(0))
            try await store.insertChallenge(hash: "c2", DashboardChallenge(purpose: .authentication, accountID: nil, expiresAt: ReferenceTime.day(0.1)), now: ReferenceTime.day(0))
            #expect(try await store.takeChallenge(hash: "c1") == challenge)
            #expect(try await store.takeChallenge(hash: "c1") == nil, "once")
            try await store.insertChallenge(hash: "c3", DashboardChallenge(purpose: .authentication, accountID: nil, expiresAt: ReferenceTime.day(2)), now: ReferenceTime.day(1))
            #expect(try await store.takeChallenge(hash: "c2") == nil, "expired, forgotten when the next was stored")
            #expect(try await store.takeChallenge(hash: "c3")?.purpose == .authentication)
        }
    }
}
