import EntitleAPI
import EntitleCore
@testable import EntitleKit
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

/// The app's access answers are the server's: the same function on the same gate (issue #51's "one
/// rule set"), checked on random subscribers, features, usages and instants, online and offline.
@Suite("Access fidelity")
struct AccessFidelityTests {
    static let examples = [
        (example: "ScreenTimeRewards", bundleID: "com.screentimerewards"),
        (example: "Epilogue", bundleID: "com.epilogue.app"),
    ]

    /// The answer without the instant it was given at (the server's now, or the cached answer's).
    static func timeless(_ access: Access) -> Access {
        var access = access
        access.serverTime = .distantPast
        return access
    }

    /// The server's answer as EntitleKit reads it, without its instant.
    static func timeless(_ response: AccessResponse) -> Access { timeless(Access(response)) }

    static func configuration(_ server: EntitleTests.Server, folder: URL, online: Bool) -> EntitleConfiguration {
        EntitleConfiguration(
            serverURL: server.url, apiKey: server.secretKey, serverPublicKey: server.signer.publicKey, cacheFolder: folder,
            maximumCacheAge: 90 * 86_400, transport: online ? EntitleTests.Patient() : EntitleTests.Offline(), now: server.clock.reading)
    }

    /// A random history: perhaps the app's trial, perhaps a purchase (active, lapsed or about to
    /// lapse), perhaps metered uses, with time passing between.
    static func history(
        _ server: EntitleTests.Server, user: String, catalog: Catalog, random: inout SeededGenerator
    ) async throws {
        let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
        if Bool.random(using: &random) { _ = try? await api.startTrial(user) }
        server.clock.advance(days: Double(Int.random(in: 0...40, using: &random)))
        let subscriptions = catalog.products.filter { $0.kind == .autoRenewable }
        if Int.random(in: 0..<3, using: &random) > 0, let product = subscriptions.randomElement(using: &random) {
            let expires = server.clock.now.addingTimeInterval(Double(Int.random(in: -20...35, using: &random)) * 86_400 + 3_600)
            try await server.purchase(product.id.rawValue, for: user, original: "F\(user)", expires: expires)
        }
        for quota in catalog.quotas {
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                _ = try? await api.recordUsage(user, feature: quota.name, amount: 1, idempotencyKey: UUID().uuidString)
            }
        }
    }

    /// The app's answer from its cache alone.
    static func cached(_ kit: Entitle, _ feature: String, usage: Int) async -> Result<Access, EntitleError> {
        do {
            return .success(try await kit.access(feature, usage: usage, fetchPolicy: .cacheOnly))
        } catch {
            return .failure(error)
        }
    }

    @Test("random subscribers, features, usages and instants: the app's answer is the server's, online and offline from the cache", arguments: 0..<12)
    func sameAnswers(seed: Int) async throws {
        let example = Self.examples[seed % Self.examples.count]
        let catalog = Fixtures.exampleCatalog(example.example)
        try await EntitleTests.run(example: example.example, bundleID: example.bundleID) { server in
            var random = SeededGenerator(seed: UInt64(seed) &+ 51)
            let user = "fidelity-\(seed)"
            try await Self.history(server, user: user, catalog: catalog, random: &random)
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let online = try Entitle(configuration: Self.configuration(server, folder: folder, online: true), appUserID: user)
            let fetched = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            let offline = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: user)
            let covered = fetched.response.accessPeriods.last.map { $0.until ?? .distantFuture } ?? .distantPast
            let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            let names = catalog.features + catalog.limits + catalog.quotas.map(\.name) + ["no.such.feature"]
            let start = server.clock.now
            let offsets = (0..<5).map { _ in Double(Int.random(in: 0...(45 * 24), using: &random)) * 3_600 }.sorted()
            var compared = 0
            for offset in [0] + offsets {
                server.clock.set(start.addingTimeInterval(offset))
                var asked: [(name: String, usage: Int, expected: Access)] = []
                for name in names.shuffled(using: &random).prefix(6) {
                    for usage in [1, Int.random(in: 0...7, using: &random), [0, 2, 6, AccessGate.maximumUsage].randomElement(using: &random) ?? 2] {
                        asked.append((name, usage, Self.timeless(try await api.access(user, feature: name, usage: usage))))
                    }
                }
                // Offline: the cache as the previous instant's fetch left it, time having passed since.
                for (name, usage, expected) in asked {
                    switch await Self.cached(offline, name, usage: usage) {
                    case .success(let answer):
                        #expect(Self.timeless(answer) == expected, "offline \(name) usage \(usage) at +\(offset / 3_600) h")
                        compared += 1
                    case .failure(let error):
                        // Past the last change the answer describes, the app asks again: never a guess.
                        #expect(error.code == .noTrustedCustomerInfo && server.clock.now >= covered, "offline \(name) at +\(offset / 3_600) h: \(error.message)")
                    }
                }
                // Online: the signed answer fetched at this instant, each question decided by the app.
                _ = try await online.customerInfo(fetchPolicy: .fetchCurrent)
                for (name, usage, expected) in asked {
                    let current = try await online.access(name, usage: usage, fetchPolicy: .cacheOnly)
                    #expect(Self.timeless(current) == expected, "online \(name) usage \(usage) at +\(offset / 3_600) h")
                }
            }
            #expect(compared > 0)
        }
    }

    @Test("seed 004: a new ScreenTime user's child devices and an Epilogue user's exhausted quota answer as the server does, offline too")
    func reportedCases() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            let online = try Entitle(configuration: Self.configuration(server, folder: folder, online: true), appUserID: "new-parent")
            _ = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            let offline = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: "new-parent")
            for usage in [1, 2, 6] {
                let expected = try await api.access("new-parent", feature: "childDevices", usage: usage)
                #expect(expected.reason?.code == .noSubscription)
                #expect(Self.timeless(try await offline.access("childDevices", usage: usage, fetchPolicy: .cacheOnly)) == Self.timeless(expected))
            }
        }
        try await EntitleTests.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            for key in ["a", "b"] { _ = try await api.recordUsage("reader", feature: "conversations", amount: 1, idempotencyKey: key) }
            let online = try Entitle(configuration: Self.configuration(server, folder: folder, online: true), appUserID: "reader")
            _ = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            let offline = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: "reader")
            let expected = try await api.access("reader", feature: "conversations")
            #expect(expected.outcome == .denied && expected.paywall == .subscribe)
            #expect(Self.timeless(try await offline.access("conversations", fetchPolicy: .cacheOnly)) == Self.timeless(expected))
        }
    }

    @Test("uses queued offline count as the server will count them once they are sent")
    func queuedUses() async throws {
        try await EntitleTests.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let online = try Entitle(configuration: Self.configuration(server, folder: folder, online: true), appUserID: "reader")
            _ = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            let offline = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: "reader")
            for (index, key) in ["q1", "q2"].enumerated() {
                #expect(try await offline.recordUsage("conversations", idempotencyKey: key) == .queued(pending: index + 1))
                let before = try await offline.access("conversations", fetchPolicy: .cacheOnly)
                #expect(before.quota?.used == index + 1)
            }
            let whileQueued = Self.timeless(try await offline.access("conversations", fetchPolicy: .cacheOnly))
            let sender = try Entitle(configuration: Self.configuration(server, folder: folder, online: true), appUserID: "reader")
            try await sender.flushUsage()
            let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            #expect(Self.timeless(try await api.access("reader", feature: "conversations")) == whileQueued)
        }
    }

    @Test("random use/access sequences, online and offline: the cached answer counts every use the server counted and every use still queued", arguments: 0..<6)
    func countedUses(seed: Int) async throws {
        try await EntitleTests.run(example: "Epilogue", bundleID: "com.epilogue.app") { server in
            var random = SeededGenerator(seed: UInt64(seed) &+ 67)
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let user = "reader-\(seed)"
            let online = try Entitle(configuration: Self.configuration(server, folder: folder, online: true), appUserID: user)
            let offline = try Entitle(configuration: Self.configuration(server, folder: folder, online: false), appUserID: user)
            let api = SubscriberAPIClient(baseURL: server.url, key: server.secretKey)
            _ = try await online.customerInfo(fetchPolicy: .fetchCurrent)
            var compared = 0
            var steps: [String] = []
            for _ in 0..<16 {
                switch Int.random(in: 0..<4, using: &random) {
                case 0:
                    steps.append("use online")
                    _ = try? await online.recordUsage("conversations")
                case 1:
                    steps.append("use offline")
                    _ = try? await offline.recordUsage("conversations")
                case 2:
                    steps.append("flush")
                    _ = try? await online.flushUsage()
                default:
                    let days = Int.random(in: 1...12, using: &random)
                    steps.append("+\(days) d")
                    server.clock.advance(days: Double(days))
                }
                let queued = await online.pendingUsage
                let counted = try await api.access(user, feature: "conversations")
                let cached: Access
                switch await Self.cached(offline, "conversations", usage: 1) {
                case .success(let answer):
                    cached = answer
                case .failure(let error):
                    // Past what the cached answer describes, the app asks again: never a guess.
                    #expect(error.code == .noTrustedCustomerInfo, "\(steps): \(error.message)")
                    continue
                }
                let used = (counted.quota?.used ?? 0) + queued
                #expect(cached.quota?.used == used, "\(steps): the server counted \(counted.quota?.used ?? 0), \(queued) queued")
                #expect(cached.quota?.limit == counted.quota.map { Limit($0.limit) }, "\(steps)")
                let left = (counted.quota?.limit).map { $0 - used } ?? Int.max
                #expect(cached.outcome == (left >= 1 ? .allowed : .denied), "\(steps): \(left) left")
                compared += 1
            }
            #expect(compared > 0)
        }
    }
}
