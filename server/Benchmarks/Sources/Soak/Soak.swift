import AppStoreModels
import AsyncHTTPClient
import BenchmarkSupport
import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import LedgerPopulation
import Logging
import NIOCore
import Synchronization

/// `entitle serve` (the release binary, its own process) on a large ledger (SQLite, or PostgreSQL) under
/// mixed load for a fixed time, its resident memory sampled from `/proc` every 10 s: renewal notifications,
/// subscriber reads, usage on a second app, and the analytics overview, with the server's analytics
/// refresher running every 5 s as it does by default.
///
///     swift build -c release --product entitle
///     swift run --package-path Benchmarks -c release Soak [EVENTS] [MINUTES] [LEDGER]
///
/// EVENTS (default 1,000,000) are appended first (the `AnalyticsLoad` population); LEDGER, a SQLite
/// file's path or a `postgres://` URL, keeps the ledger for another run, which appends only what is
/// missing (by default a SQLite file in a temporary folder, removed at the end). `ENTITLE_BINARY`
/// names the server binary (default `.build/release/entitle`).
@main
enum Soak {
    static let port = 18_124
    static let key = "sk_soak_test_key_000001"
    static let screenTime = "com.screentimerewards"
    static let epilogue = "com.epilogue.app"
    /// Requests per second, each kind on its own schedule (open loop).
    static let notificationRate = 100
    static let readRate = 300
    static let usageRate = 50
    static let overviewEvery = Duration.seconds(15)
    /// HTTP/1 connections the load opens to the server at most. AsyncHTTPClient's default of 8 would cap
    /// the requests in flight at 8, so a slower moment queued the load in the client (and failed what
    /// waited 10 s there for a connection) rather than at the server, as many apps' devices and Apple's
    /// deliveries, each on its own connection, don't.
    static let connections = 128
    static let linkedSubscribers = 2_000
    /// Subscribers of the second app recording usage: enough that none records more than its free
    /// quota (2 conversations a month) in a run of `minutes`, so every record is answered 2xx.
    static func readers(minutes: Double) -> Int { max(20_000, Int(minutes * 60) * usageRate / 2 + 1) }
    static let warmUp = Duration.seconds(120)

    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        let events = arguments.first.flatMap { Int($0) } ?? 1_000_000
        let minutes = arguments.dropFirst().first.flatMap { Double($0) } ?? 10
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let ledger = arguments.dropFirst(2).first.map { $0.hasPrefix("postgres") ? $0 : "sqlite:\($0)" }
            ?? "sqlite:" + folder.appendingPathComponent("entitle.sqlite").path
        let binary = ProcessInfo.processInfo.environment["ENTITLE_BINARY"] ?? root.appendingPathComponent(".build/release/entitle").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            print("no server binary at \(binary): run `swift build -c release --product entitle` first, or set ENTITLE_BINARY")
            exit(2)
        }

        // Both apps' catalogs, each saying its bundle ID, as `serve` wants with several apps.
        let catalogs = try [(screenTime, "ScreenTimeRewards"), (epilogue, "Epilogue")].map { bundleID, name in
            let copy = folder.appendingPathComponent(name)
            try FileManager.default.copyItem(at: root.appendingPathComponent("Examples/\(name)"), to: copy)
            let file = copy.appendingPathComponent("entitlements.json")
            var document = try JSONSerialization.jsonObject(with: Data(contentsOf: file)) as! [String: Any]
            document["bundleID"] = bundleID
            try JSONSerialization.data(withJSONObject: document).write(to: file)
            return copy
        }
        let purchases = try await fill(ledger: ledger, events: events, catalog: catalogs[0])

        // A PKI valid now, its root handed to the server.
        let started = Date()
        let pki = try TestPKI(reference: started)
        let rootFile = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(pki.root)).write(to: rootFile)
        let log = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-soak-serve.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let server = Process()
        server.executableURL = URL(fileURLWithPath: binary)
        server.arguments = [
            "serve", "--host", "127.0.0.1", "--port", "\(port)", "--database", ledger,
            "--catalog", catalogs[0].path, "--catalog", catalogs[1].path, "--root-certificate", rootFile.path,
            "--environment", "sandbox", "--secret-key", key, "--public-key-secret", "soak",
        ]
        let output = try FileHandle(forWritingTo: log)
        server.standardOutput = output
        server.standardError = output
        try server.run()
        let pid = server.processIdentifier

        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)))
        let load = Load(http: http)
        try await load.waitForServer()
        let startRSS = residentKB(pid)
        print("server pid \(pid) up on a ledger of \(events) events; RSS at start \(startRSS / 1024) MB")

        // Subscribers of this run link their first purchase through the app; readers of the second app
        // are this run's too, so a run on a kept ledger starts them with their quota unused.
        let apple = AppleFacts(bundleID: screenTime)
        let product = Population.product[1]
        let run = Int(started.timeIntervalSince1970)
        for user in 0..<linkedSubscribers {
            let transaction = apple.subscription(
                product, original: "S\(user)", id: "S\(user)-0", purchase: started, expires: started + 31 * 86_400, signed: started)
            let status = try await load.post("/v1/subscribers/soak-\(run)-\(user)/transactions", app: screenTime,
                                             body: SubmitTransactionRequest(signedTransaction: pki.sign(transaction)))
            precondition(status == 200, "linking failed: \(status)")
        }

        let clock = ContinuousClock()
        let end = clock.now + .seconds(minutes * 60)
        let samples = Samples()
        let begin = clock.now
        let readers = Self.readers(minutes: minutes)
        await withDiscardingTaskGroup { group in
            group.addTask {
                while clock.now < end {
                    samples.values.withLock { $0.append((Int((clock.now - begin).inSeconds), residentKB(pid), residentKB(pid, "RssAnon:"))) }
                    try? await Task.sleep(for: .seconds(10))
                }
                samples.values.withLock { $0.append((Int((clock.now - begin).inSeconds), residentKB(pid), residentKB(pid, "RssAnon:"))) }
            }
            group.addTask {
                await load.schedule("notification", rate: notificationRate, until: end) { index in
                    // Renewals of the population's purchases, spread over all of them, each found by its owner.
                    let (original, product) = purchases[(index &* 7_919) % purchases.count]
                    let now = Date()
                    let transaction = apple.subscription(
                        product, original: original, id: "\(original)-soak-\(run)-\(index)", purchase: now, expires: now + 31 * 86_400, signed: now,
                        reason: .renewal)
                    let payload = ResponseBodyV2DecodedPayload(
                        notificationType: .didRenew, notificationUUID: UUID().uuidString,
                        data: NotificationData(environment: .sandbox, bundleId: screenTime, signedTransactionInfo: pki.sign(transaction)),
                        version: "2.0", signedDate: now)
                    return try await load.post("/v1/app-store/notifications", app: nil, key: nil,
                                               body: AppStoreNotificationRequest(signedPayload: pki.sign(payload)))
                }
            }
            group.addTask {
                await load.schedule("subscriber read", rate: readRate, until: end) { index in
                    // Mostly the ledger's population, spread over all of it; some of the soak's own.
                    let id = index % 5 == 0 ? "soak-\(run)-\(index % linkedSubscribers)" : "user-\((index &* 7_919) % 180_000)"
                    return try await load.get("/v1/subscribers/\(id)", app: screenTime)
                }
            }
            group.addTask {
                await load.schedule("usage (second app)", rate: usageRate, until: end) { index in
                    try await load.post("/v1/subscribers/reader-\(run)-\(index % readers)/usage", app: epilogue,
                                        body: RecordUsageRequest(feature: "conversations", idempotencyKey: "soak-\(started.timeIntervalSince1970)-\(index)"))
                }
            }
            group.addTask {
                await load.schedule("analytics overview", rate: 0, every: overviewEvery, until: end) { _ in
                    try await load.get("/v1/analytics/overview", app: screenTime)
                }
            }
        }

        server.interrupt()
        server.waitUntilExit()
        try await http.shutdown()

        let sampled = samples.values.withLock { $0 }
        print("\n| elapsed | server RSS | of which anonymous |")
        print("|---:|---:|---:|")
        for sample in sampled where sample.seconds % 60 < 10 || sample == sampled.last! {
            print("| \(sample.seconds) s | \(sample.kb / 1024) MB | \(sample.anonymous / 1024) MB |")
        }
        let warm = sampled.filter { $0.seconds >= Int(warmUp.inSeconds) }
        if let first = warm.first, let last = warm.last, let peak = warm.map(\.kb).max() {
            print(String(
                format: "\nafter warm-up (%d s): %d MB; at the end: %d MB (%+.1f%%); highest after warm-up: %d MB (%+.1f%%)",
                first.seconds, first.kb / 1024, last.kb / 1024, Double(last.kb - first.kb) / Double(first.kb) * 100,
                peak / 1024, Double(peak - first.kb) / Double(first.kb) * 100))
        }
        print("\n| requests | sent | 2xx | failed | p50 | p99 |")
        print("|---|---:|---:|---:|---:|---:|")
        for row in load.report() { print(row) }
        let failures = load.failures()
        if !failures.isEmpty { print(""); for line in failures { print(line) } }
        print("\nserver exit status after SIGINT: \(server.terminationStatus) (its log: \(log.path))")
    }

    /// Appends the population's events that are missing, then brings the analytics up to date, so the
    /// server starts on a ledger it has already read.
    /// Returns every purchase of the population, with its product.
    static func fill(ledger: String, events: Int, catalog: URL) async throws -> [(original: String, product: String)] {
        var logger = Logger(label: "entitle.soak")
        logger.logLevel = .error
        let people = Population.people(events: events)
        let total = people.reduce(0) { $0 + $1.count }
        let purchases = people.compactMap { events in
            events.lazy.compactMap { event in event.originalTransactionID.map { ($0.rawValue, productID(of: event) ?? Population.product[0]) } }.first
        }
        let contributor = AnalyticsContributor(catalog: try CatalogLoader().load(directory: catalog))
        try await LedgerConnection.with(try LedgerDatabase(url: ledger), logger: logger) { root in
            let store = root.forApp(BundleID(screenTime))
            let existing = try await store.eventCount()
            guard existing < total else { return }
            print("appending \(total - existing) of \(total) events for \(people.count) subscribers…")
            let clock = ContinuousClock()
            let took = try await clock.measure {
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for worker in 0..<8 {
                        group.addTask {
                            // Appends are idempotent: a fill that stopped half-way resumes.
                            for person in stride(from: worker, to: people.count, by: 8) {
                                for event in people[person] { _ = try await store.append(event) }
                            }
                        }
                    }
                    try await group.waitForAll()
                }
                _ = try await store.analyticsStore().refreshAnalytics(batchSize: 1_000) { contributor.cells(appUserID: $0, events: $1) }
            }
            print(String(format: "appended and read by analytics in %.0f s", took.inSeconds))
        }
        return purchases
    }

    static func productID(of event: LedgerEvent) -> String? {
        switch event.payload {
        case .transaction(let transaction), .notification(_, _, let transaction?, _): transaction.productId
        default: nil
        }
    }

    /// VmRSS (or another line of `/proc/<pid>/status`, such as RssAnon) of `pid` in kB.
    static func residentKB(_ pid: Int32, _ field: String = "VmRSS:") -> Int {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
            let line = status.split(separator: "\n").first(where: { $0.hasPrefix(field) })
        else { return 0 }
        return Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
    }
}

/// The server's resident memory over the run.
final class Samples: Sendable {
    let values = Mutex<[(seconds: Int, kb: Int, anonymous: Int)]>([])
}
