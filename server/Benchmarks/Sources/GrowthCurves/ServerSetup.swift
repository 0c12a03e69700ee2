import AppStoreModels
import AppStoreServerAPI
import AsyncHTTPClient
import Crypto
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
import LedgerPopulation
import LocalAppStore
import NIOCore
import Synchronization

/// `entitle serve` on the growth ledger, and what is measured of it at one size.
struct ServerSetup: Sendable {
    let binary: String
    let database: String
    let catalogs: [URL]
    let rootFile: URL
    let log: URL
    /// Signs this run's notifications; the server trusts its root.
    let pki: TestPKI
    /// The first app's in-app purchase key, which Apple's stand-in knows: reconciliation is measured on it.
    let teamKey: InAppPurchaseKey
    let keyFile: URL
    static let webhookPort = 18_126
    static let applePort = 18_127
    static let webhookSecret = "whsec_growth_curves_0123456789abcdef"

    init(folder: URL, root: URL, binary: String, database: String) throws {
        self.binary = binary
        self.database = database
        catalogs = try SignedPopulation.catalogs(from: root, into: folder)
        pki = try TestPKI(reference: Date())
        rootFile = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(pki.root)).write(to: rootFile)
        log = folder.appendingPathComponent("serve.log")
        teamKey = InAppPurchaseKey(privateKey: P256.Signing.PrivateKey(), keyID: "GROWTHKEY1", issuerID: "issuer-growth-curves")
        keyFile = folder.appendingPathComponent("SubscriptionKey_GROWTHKEY1.p8")
        try teamKey.privateKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
    }

    /// Starts the server, measures it, stops it.
    func measure(size: Int, population: SignedPopulation, reconciling: Bool = true) async throws -> [String: Double] {
        var figures: [String: Double] = [:]
        let sink = WebhookSink(port: Self.webhookPort)
        try await sink.start()
        let app = SignedPopulation.apps[0].bundleID
        let apple = AppleStandIn(
            api: LocalServerAPI(
                credentials: .init(keyID: teamKey.keyID, issuerID: teamKey.issuerID, bundleID: app, publicKey: teamKey.privateKey.publicKey),
                pageSize: 20, now: { Date() }),
            port: Self.applePort)
        try await apple.start()
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "\(GrowthCurves.port)", "--database", database,
            "--root-certificate", rootFile.path, "--environment", "sandbox", "--secret-key", GrowthCurves.key, "--public-key-secret", "growth",
            "--webhook-url", "http://127.0.0.1:\(Self.webhookPort)/hooks", "--webhook-secret", Self.webhookSecret,
            // Reconciliation only when asked (below), not paced: Entitle's own cost, not Apple's limit.
            "--app-store-key", "\(app)=\(keyFile.path)", "--app-store-key-id", "\(app)=\(teamKey.keyID)",
            "--app-store-issuer-id", "\(app)=\(teamKey.issuerID)", "--app-store-api-url", "http://127.0.0.1:\(Self.applePort)",
            "--app-store-pace", "none", "--reconcile-interval", "0",
        ] + catalogs.flatMap { ["--catalog", $0.path] }
        let output = try FileHandle(forWritingTo: log)
        server.standardOutput = output
        server.standardError = output
        try server.run()
        let pid = server.processIdentifier
        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(
                redirectConfiguration: .disallow, connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)))
        let client = Client(http: http)
        defer {
            server.interrupt()
            server.waitUntilExit()
        }
        do {
            try await client.waitForServer()
            figures["RSS at start MB"] = Double(Memory.residentKB(pid)) / 1024

            // Reads: uniformly random subscribers, each with its app.
            var generator = SeededGenerator(seed: UInt64(size))
            let picks = (0..<(GrowthCurves.readRate * GrowthCurves.readSeconds)).map { _ in Int.random(in: 0..<size, using: &generator) }
            for pass in ["cold", "warm"] {
                let disk = Memory.bytesRead(pid)
                let (p50, p99, failed) = try await client.fixedRate(rate: GrowthCurves.readRate, count: picks.count) { number in
                    let index = picks[number]
                    return ("/v1/subscribers/user-\(index)", SignedPopulation.app(of: index, seed: population.seed).bundleID)
                }
                figures["read p50 ms (\(pass))"] = p50
                figures["read p99 ms (\(pass))"] = p99
                // What the server read from the disk (not the page cache) for them, per read.
                let read = Double(Memory.bytesRead(pid) - disk) / Double(picks.count)
                figures["read disk bytes/request (\(pass))"] = read
                say(String(format: "  GET /v1/subscribers/{id} at %d/s, %@: p50 %.2f ms, p99 %.2f ms, %d failed; %.0f bytes read from the disk a request",
                             GrowthCurves.readRate, pass, p50, p99, failed, read))
            }

            // Ingestion: renewals of distinct purchases, signed before the clock starts, and the webhooks they cause.
            var chosen: [(user: String, app: String, body: AppStoreNotificationRequest)] = []
            var seen: Set<Int> = []
            let now = Date()
            while chosen.count < GrowthCurves.notifications, seen.count < size {
                let index = Int.random(in: 0..<size, using: &generator)
                guard seen.insert(index).inserted, let purchase = population.purchase(of: index) else { continue }
                let apple = AppleFacts(bundleID: purchase.app.bundleID)
                let transaction = apple.subscription(
                    purchase.productID, original: purchase.original, id: "\(purchase.original)-growth-\(Int(now.timeIntervalSince1970))", purchase: now,
                    expires: now + 30 * 86_400, signed: now, reason: .renewal)
                let payload = ResponseBodyV2DecodedPayload(
                    notificationType: .didRenew, notificationUUID: UUID().uuidString,
                    data: NotificationData(environment: .sandbox, bundleId: purchase.app.bundleID, signedTransactionInfo: pki.sign(transaction)),
                    version: "2.0", signedDate: now)
                chosen.append(("user-\(index)", purchase.app.bundleID, AppStoreNotificationRequest(signedPayload: pki.sign(payload))))
            }
            let sending = Sending(chosen)
            let diskBeforeIngestion = Memory.bytesRead(pid)
            let clock = ContinuousClock()
            let started = clock.now
            try await withThrowingTaskGroup(of: Void.self) { group in
                for _ in 0..<GrowthCurves.senders {
                    group.addTask {
                        while let (user, body) = sending.next() {
                            let status = try await client.post("/v1/app-store/notifications", app: nil, key: nil, body: body)
                            if status == 200 { sending.acknowledge(user, at: clock.now) }
                        }
                    }
                }
                try await group.waitForAll()
            }
            let took = Run.seconds(clock.now - started)
            let acks = sending.acknowledged()
            figures["ingestion /s"] = Double(acks.count) / took
            figures["ingestion disk bytes read/notification"] = Double(Memory.bytesRead(pid) - diskBeforeIngestion) / Double(max(1, chosen.count))
            say(String(format: "  ingestion: %d of %d notifications acknowledged in %.1f s (%.0f/s)", acks.count, chosen.count, took,
                         Double(acks.count) / took))
            let lags = try await sink.lags(for: acks, within: .seconds(120))
            figures["webhook lag p50 ms"] = Table.percentile(lags.values, 0.5)
            figures["webhook lag p99 ms"] = Table.percentile(lags.values, 0.99)
            figures["webhooks delivered %"] = Double(lags.values.count) / Double(max(1, acks.count)) * 100
            say(String(format: "  webhooks: %d of %d subscribers' first webhook arrived, lag p50 %.0f ms, p99 %.0f ms",
                         lags.values.count, acks.count, figures["webhook lag p50 ms"] ?? 0, figures["webhook lag p99 ms"] ?? 0))

            // The analytics API and every dashboard page, each the median of 5 after a first.
            for path in ["/v1/analytics/overview", "/v1/analytics/funnels"] {
                figures["\(path) ms"] = try await client.median(path, app: app)
            }
            let cookie = try await client.dashboardSession(app: app)
            let someone = "user-\(picks.first { SignedPopulation.app(of: $0, seed: population.seed).bundleID == app } ?? 0)"
            let pages = [
                "/dashboard", "/dashboard/funnels", "/dashboard/cohorts", "/dashboard/products", "/dashboard/subscribers",
                "/dashboard/subscribers?q=\(someone)", "/dashboard/subscribers/\(someone)", "/dashboard/orders",
            ]
            var shown: [String] = []
            for page in pages {
                // The subscriber's ID out of the figure's name, so every size has the same rows.
                let name = page.replacingOccurrences(of: someone, with: "{id}")
                figures["\(name) ms"] = try await client.median(page, app: nil, cookie: cookie)
                shown.append(String(format: "%@ %.1f ms", name, figures["\(name) ms"] ?? 0))
            }
            say("  analytics: " + ["/v1/analytics/overview", "/v1/analytics/funnels"].map { String(format: "%@ %.1f ms", $0, figures["\($0) ms"] ?? 0) }
                .joined(separator: ", ") + "; dashboard: " + shown.joined(separator: ", "))

            // One reconciliation pass of the first app: every one of its projections read page by page,
            // each subscription past its expiry with no news asked about (the stand-in knows none of the
            // population's purchases, so each is two round trips, production then sandbox, and unanswered).
            if reconciling {
                let pass = try await client.reconcile(app: app)
                figures["reconciliation pass s"] = pass.seconds
                figures["reconciliation purchases checked"] = Double(pass.purchasesChecked)
                figures["reconciliation checks/s"] = Double(pass.purchasesChecked) / max(pass.seconds, 0.001)
                // Per subscriber of the ledger (the first app's share of it is the same at every size).
                figures["reconciliation µs/subscriber"] = pass.seconds * 1e6 / Double(size)
                say(String(format: "  reconciliation pass: %.1f s, %d purchases asked about (%d unanswered), %.0f a second", pass.seconds,
                             pass.purchasesChecked, pass.purchasesUnanswered, figures["reconciliation checks/s"] ?? 0))
            }
            figures["RSS at end MB"] = Double(Memory.residentKB(pid)) / 1024
            // The allocator's live bytes: what RSS holds beyond them is freed memory not yet given back.
            figures["heap in use at end MB"] = (try await client.gauge("entitle_heap_in_use_bytes") ?? .nan) / 1_048_576
            say(String(format: "  server RSS: %.0f MB at start, %.0f MB at the end (heap in use %.0f MB)", figures["RSS at start MB"] ?? 0,
                         figures["RSS at end MB"] ?? 0, figures["heap in use at end MB"] ?? 0))
        } catch {
            say("  the measurement failed: \(error) (the server's log: \(log.path))")
            throw error
        }
        try await http.shutdown()
        await sink.stop()
        await apple.stop()
        return figures
    }
}

/// Notifications handed to the senders one at a time, and when each subscriber's was acknowledged.
final class Sending: Sendable {
    private let requests: [(user: String, app: String, body: AppStoreNotificationRequest)]
    private let position = Atomic<Int>(0)
    private let acks = Mutex<[String: ContinuousClock.Instant]>([:])

    init(_ requests: [(user: String, app: String, body: AppStoreNotificationRequest)]) {
        self.requests = requests
    }

    func next() -> (String, AppStoreNotificationRequest)? {
        let number = position.add(1, ordering: .relaxed).oldValue
        guard number < requests.count else { return nil }
        return (requests[number].user, requests[number].body)
    }

    func acknowledge(_ user: String, at instant: ContinuousClock.Instant) { acks.withLock { $0[user] = instant } }
    func acknowledged() -> [String: ContinuousClock.Instant] { acks.withLock { $0 } }
}

enum Memory {
    static func residentKB(_ pid: Int32) -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return 0 }
        let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
        return Int(line.split(separator: " ").dropFirst().first ?? "") ?? 0
    }

    /// Bytes the process has had read from storage, not the page cache (`read_bytes` of `/proc/PID/io`).
    static func bytesRead(_ pid: Int32) -> Int {
        guard let io = try? String(contentsOfFile: "/proc/\(pid)/io", encoding: .utf8) else { return 0 }
        let line = io.split(separator: "\n").first { $0.hasPrefix("read_bytes:") } ?? ""
        return Int(line.split(separator: " ").last ?? "") ?? 0
    }
}
