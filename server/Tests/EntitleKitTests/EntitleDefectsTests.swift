import AppStoreModels
import EntitleAPI
import EntitleCore
import EntitleKit
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

/// Each defect issue #51 reported in EntitleKit, as a test: refused uses, the cache after a log-in,
/// bad input, the app's first launch.
@Suite("Entitle: what the server refuses, who the cache is for, bad input, the first launch")
struct EntitleDefectsTests {
    static func configuration(_ server: EntitleTests.Server, folder: URL, online: Bool = true) -> EntitleConfiguration {
        server.configuration(folder: folder, online: online)
    }

    /// What `body` returned, or the error it threw.
    static func outcome<Value>(_ body: () async throws(EntitleError) -> Value) async -> Result<Value, EntitleError> {
        do {
            return .success(try await body())
        } catch {
            return .failure(error)
        }
    }

    @Test("a use the server refuses throws its code (quota spent, unknown feature, not metered), and the server's count stands")
    func refusedUse() async throws {
        try await EntitleTests.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let entitle = try Entitle(configuration: Self.configuration(server, folder: folder), appUserID: "reader")
            for key in ["u1", "u2"] {
                guard case .counted(let answer) = try await entitle.recordUsage("conversations", idempotencyKey: key) else {
                    Issue.record("the server was reachable")
                    return
                }
                #expect(answer.outcome != .denied)
            }
            for (feature, code) in [("conversations", "usage.quotaExhausted"), ("no.such", "usage.unknownFeature"), ("library", "usage.notMetered")] {
                let result = await Self.outcome { () async throws(EntitleError) in try await entitle.recordUsage(feature, idempotencyKey: "u3-\(feature)") }
                guard case .failure(let error) = result else {
                    Issue.record("\(feature): the server refuses this use")
                    continue
                }
                #expect(error.serverCode == code, "\(feature)")
                #expect(!error.isRetryable, "\(feature)")
            }
            #expect(await entitle.pendingUsage == 0)
            let answer = try await entitle.access("conversations", fetchPolicy: .fetchCurrent)
            #expect(answer.quota?.used == 2)
            #expect(answer.outcome == .denied && answer.reason?.code == "quota_exhausted" && answer.paywall == .subscribe)
        }
    }

    @Test("a queued use the server refuses later is reported through the updates, with the answer counting what the server counted")
    func refusedLater() async throws {
        try await EntitleTests.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let offline = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: "reader")
            for key in ["q1", "q2", "q3"] { _ = try await offline.recordUsage("conversations", idempotencyKey: key) }
            #expect(await offline.pendingUsage == 3)
            let online = try Entitle(configuration: Self.configuration(server, folder: folder), appUserID: "reader")
            let updates = await online.customerInfoUpdates()
            let refused = try await online.flushUsage()
            #expect(refused.map(\.idempotencyKey) == ["q3"])
            #expect(refused.first?.error.serverCode == "usage.quotaExhausted")
            var iterator = updates.makeAsyncIterator()
            let update = try #require(await iterator.next())
            #expect(update.refusedUses.map(\.idempotencyKey) == ["q3"])
            #expect(update.quotas.first { $0.feature == "conversations" }?.used == 2)
            #expect(await online.pendingUsage == 0)
        }
    }

    @Test("after a log-in, a new instance on the same cache is the logged-in user's, offline too; after a log-out, a new anonymous one's")
    func cacheFollowsTheUser() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try await server.purchase("com.screentimerewards.family.monthly", for: "reader@example.com", original: "L1", expires: ReferenceTime.day(31))
            let device = try Entitle(configuration: Self.configuration(server, folder: folder))
            let anonymous = await device.appUserID
            _ = try await device.customerInfo(fetchPolicy: .fetchCurrent)
            _ = try await device.logIn("reader@example.com")

            let relaunched = try Entitle(configuration: Self.configuration(server, folder: folder, online: false))
            #expect(await relaunched.appUserID == "reader@example.com")
            let cached = try await relaunched.customerInfo(fetchPolicy: .cacheOnly)
            #expect(cached.appUserID == "reader@example.com")
            #expect(cached.isActive("family", at: server.clock.now))

            try await relaunched.logOut()
            let afterLogOut = try Entitle(configuration: Self.configuration(server, folder: folder, online: false))
            let fresh = await afterLogOut.appUserID
            #expect(AppUserID(fresh).isAnonymous && fresh != anonymous)
        }
    }

    @Test("bad input is refused before any request: usage, amounts, keys, app user IDs")
    func badInput() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            // Offline: a request would fail as `network`; each of these fails as `request.invalid` first.
            let entitle = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: "reader")
            for usage in [-1, AccessGate.maximumUsage + 1] {
                await #expect(throws: EntitleError(.invalidRequest, "usage is a whole number from 0 to \(AccessGate.maximumUsage)")) {
                    try await entitle.access("childDevices", usage: usage)
                }
            }
            for (amount, key) in [(0, "k"), (-1, "k"), (AccessGate.maximumUsage + 1, "k"), (1, ""), (1, String(repeating: "k", count: 201))] {
                let result = await Self.outcome { () async throws(EntitleError) in
                    try await entitle.recordUsage("conversations", amount: amount, idempotencyKey: key)
                }
                guard case .failure(let error) = result else {
                    Issue.record("amount \(amount), key of \(key.count) bytes is refused")
                    continue
                }
                #expect(error.code == .invalidRequest)
            }
            #expect(await entitle.pendingUsage == 0)
            for id in ["", String(repeating: "x", count: 201), "a\u{7}b", "$anon:not-a-uuid"] {
                #expect(throws: EntitleError.self, "\(id.debugDescription)") { try Entitle(configuration: Self.configuration(server, folder: folder), appUserID: id) }
            }
        }
    }

    @Test("a damaged anonymous-id file is replaced by a new anonymous ID, which the server takes")
    func damagedAnonymousID() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            for damaged in ["$anon:not-a-uuid", "", "\u{0}\u{1}", "$anon:" + String(repeating: "f", count: 300)] {
                try Data(damaged.utf8).write(to: folder.appendingPathComponent("anonymous-id"))
                let entitle = try Entitle(configuration: Self.configuration(server, folder: folder))
                let id = await entitle.appUserID
                #expect(AppUserID(id).isAnonymous && AppUserID(id).problem == nil, "\(damaged.debugDescription)")
                #expect(try await entitle.customerInfo(fetchPolicy: .fetchCurrent).appUserID == id)
            }
        }
    }

    @Test("seed 004: recordFirstLaunch starts the app's 30-day trial at the server's time, once; the answer shows its phase, end and lockout")
    func firstLaunch() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let entitle = try Entitle(configuration: Self.configuration(server, folder: folder), appUserID: "new-parent")
            let started = server.clock.now
            let first = try await entitle.recordFirstLaunch()
            #expect(first.appTrial.phase == .active)
            #expect(first.appTrial.startedAt == started)
            #expect(first.appTrial.endsAt == ISODuration(days: 30).added(to: started))
            #expect(first.appTrial.lockoutAt == ISODuration(days: 37).added(to: started))
            server.clock.advance(days: 2)
            let again = try await entitle.recordFirstLaunch()
            #expect(again.appTrial.startedAt == started)
            // Past the trial, the warning days, then lockout: from the same answer, offline.
            let offline = try Entitle(
                configuration: AccessFidelityTests.configuration(server, folder: folder, online: false), appUserID: "new-parent")
            server.clock.set(ISODuration(days: 32).added(to: started))
            let grace = try await offline.access("analytics", fetchPolicy: .cacheOnly)
            #expect(grace.outcome == .allowedWithWarning && grace.paywall == .convertTrial)
            #expect(grace.reason == .appGrace(lockoutAt: ISODuration(days: 37).added(to: started)))
        }
    }
}
