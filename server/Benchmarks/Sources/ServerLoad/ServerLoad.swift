import AppStoreModels
import AppStoreVerification
import AsyncHTTPClient
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import Hummingbird
import Logging
import NIOCore
import PostgresNIO
import ServiceLifecycle

/// Load on the real server over loopback HTTP, with `/health` measured in the same run as the
/// reference: notification ingestion per second (each acknowledged only after commit), and the
/// latency of `GET /v1/subscribers/{id}` and of `/health` at a fixed request rate (open loop), and
/// each one's rate at saturation. `GET /ready` beside them, one `SELECT 1` asked as a subscriber read
/// asks the ledger and nothing else, is the least any request reading the ledger costs: the bound a
/// read's own work sits on.
///
///     swift run --package-path Benchmarks -c release ServerLoad [sqlite|postgres://…] [off,derive,on,forward,delivery,apps]
///
/// On PostgreSQL the server handles requests on their connections' event loops, with reads on each
/// loop's connections, as `entitle serve` does; `ENTITLE_LOAD_REQUESTS_ON_EVENT_LOOPS=0` handles them
/// on the global executor with reads on the pool instead, for comparison in the same build. Subscriber
/// answers are signed (Ed25519), as `entitle serve` signs them; `ENTITLE_LOAD_SIGNED=0` leaves them
/// unsigned, for comparison. The load opens as many connections to the server as it has concurrent
/// senders or clients (`connections`); `ENTITLE_LOAD_CONNECTIONS=8` caps them at AsyncHTTPClient's
/// default, as in the figures measured before it was set. On PostgreSQL the ledger is opened as
/// `entitle serve` opens it, the event loops' read connections opened before the server listens
/// with the reads' statements prepared on each (`ENTITLE_LOAD_PREPARE_READS=0` opens them only;
/// `ENTITLE_LOAD_OPEN_READ_CONNECTIONS=0` leaves them to the first reads). `ENTITLE_LOAD_TIMELINE=1`
/// also prints, for each fixed-rate phase, the 125 ms windows holding a request slower than 5 ms:
/// when in the phase its p99 was made; `ENTITLE_LOAD_PHASES=1` prints each saturation phase's
/// window on the monotonic clock to standard error, for `perf report --time` over a
/// `perf record -a -k CLOCK_MONOTONIC` of the run.
@main
enum ServerLoad {
    static let port = 18_123
    static let subscribers = 100
    static let notifications = 4_000
    static let senders = 16
    static let rate = 2_000
    static let seconds = 5
    /// HTTP/1 connections the load opens to the server at most: one for each of the concurrent senders
    /// and saturation clients. AsyncHTTPClient's default of 8 would keep at most 8 requests in flight,
    /// queueing the rest in the client: the 16 senders and 32 clients would be 8, and a request at the
    /// fixed rate would wait there for a connection whenever 8 were in flight.
    static let connections = ProcessInfo.processInfo.environment["ENTITLE_LOAD_CONNECTIONS"].flatMap { Int($0) }.map { max(1, $0) }
        ?? max(senders, saturationClients)

    static func main() async throws {
        let target = CommandLine.arguments.dropFirst().first ?? "sqlite"
        // SQLite only: which parts to run (all by default), e.g. `off,derive`.
        let parts = Set((CommandLine.arguments.dropFirst(2).first ?? "off,derive,on,forward,delivery,apps").split(separator: ",").map(String.init))
        let logger = {
            var logger = Logger(label: "entitle.load")
            logger.logLevel = .error
            return logger
        }()
        guard !target.hasPrefix("postgres") else {
            let onLoops = ProcessInfo.processInfo.environment["ENTITLE_LOAD_REQUESTS_ON_EVENT_LOOPS"] != "0"
            let openReads = ProcessInfo.processInfo.environment["ENTITLE_LOAD_OPEN_READ_CONNECTIONS"] != "0"
            let prepareReads = ProcessInfo.processInfo.environment["ENTITLE_LOAD_PREPARE_READS"] != "0"
            // The ledger as `entitle serve` opens it: migrated, and the event loops' read connections
            // opened, the reads prepared on each, before the server listens (for comparison: opened
            // only with ENTITLE_LOAD_PREPARE_READS=0, by the first reads with
            // ENTITLE_LOAD_OPEN_READ_CONNECTIONS=0).
            let connection = try await LedgerConnection.open(try LedgerDatabase(url: target), logger: logger)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for service in connection.services { group.addTask { try await service.run() } }
                try await connection.store.migrate()
                if openReads { await connection.loopLease?.openAll(preparing: prepareReads) }
                _ = try await run(
                    store: connection.store, engine: onLoops ? "PostgreSQL, requests on event loops" : "PostgreSQL, requests on the global executor",
                    logger: logger, webhooks: nil, requestsOnEventLoops: onLoops)
                // The services close the store as they stop.
                group.cancelAll()
            }
            return
        }
        // SQLite: the same load with webhooks off and on, then webhook delivery alone, each on a fresh
        // ledger, in one run; a receiver on loopback answers the webhooks.
        try await WebhookReceiver.run { url, _ in
            var rates: [String: Double] = [:]
            // Off; on with an endpoint that wants no event of the run (every change derived, nothing sent);
            // on with an endpoint that wants every event; off, with the server serving a second app
            // first (each notification is routed by the bundle ID its payload names).
            let configurations: [(key: String, name: String, webhooks: URL?, types: [String], secondApp: Bool)] = [
                ("off", "webhooks off", nil, [], false), ("derive", "webhooks on, nothing to send", url, ["test"], false),
                ("on", "webhooks on", url, [], false), ("apps", "webhooks off, two apps served", nil, [], true),
                // Every notification forwarded (--forward-url) to a target that refuses every connection.
                ("forward", "forwarding to a dead target", URL(string: "http://127.0.0.1:9/notifications")!, [WebhookEndpoint.forwardedNotification], false),
            ]
            for (key, name, webhooks, types, secondApp) in configurations where parts.contains(key) {
                let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-load-\(UUID().uuidString)")
                defer { try? FileManager.default.removeItem(at: folder) }
                rates[key] = (try await LedgerConnection.with(.sqlite(path: folder.appendingPathComponent("entitle.sqlite").path), logger: logger) { store in
                    try await $app.withValue(secondApp ? "com.screentimerewards" : nil) {
                        try await run(store: store, engine: "SQLite, \(name)", logger: logger, webhooks: webhooks, types: types, secondApp: secondApp)
                    }
                })
            }
            if let off = rates["off"], let derive = rates["derive"], let on = rates["on"] {
                print(String(format: "ingestion with webhooks on, nothing to send / off: %.2f; on / off: %.2f\n", derive / off, on / off))
            }
            if let off = rates["off"], let forward = rates["forward"] {
                print(String(format: "ingestion while forwarding to a dead target / off: %.2f\n", forward / off))
            }
            if let off = rates["off"], let apps = rates["apps"] {
                print(String(format: "ingestion with two apps served / one: %.2f\n", apps / off))
            }
            guard parts.contains("delivery") else { return }
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-load-\(UUID().uuidString)")
            defer { try? FileManager.default.removeItem(at: folder) }
            try await LedgerConnection.with(.sqlite(path: folder.appendingPathComponent("entitle.sqlite").path), logger: logger) { store in
                try await WebhookThroughput.measure(store: store, receiver: url, logger: logger)
            }
        }
    }

    /// Returns the ingestion rate.
    static func run(
        store: any LedgerStore, engine: String, logger: Logger, webhooks: URL?, types: [String] = [], secondApp: Bool = false, requestsOnEventLoops: Bool = false
    ) async throws -> Double {
        let pki = try TestPKI()
        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let now = Date(timeIntervalSince1970: ReferenceTime.start.timeIntervalSince1970 + 40 * 86_400)
        let verifier = SignedDataVerifier(
            configuration: VerifierConfiguration(bundleID: "com.screentimerewards", environment: .sandbox, appAppleID: 1234, rootCertificates: [pki.root]),
            now: { now })
        let examples = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")
        let catalog = try CatalogLoader().load(directory: examples.appendingPathComponent("ScreenTimeRewards"))
        let keys = try APIKeys(secretKeys: ["sk_load_test_key_000001"], publicKeySecret: "load")
        var apps = [ServedApp(bundleID: "com.screentimerewards", catalog: catalog, verifiers: [verifier])]
        if secondApp {
            let epilogue = SignedDataVerifier(
                configuration: VerifierConfiguration(bundleID: "com.epilogue.app", environment: .sandbox, appAppleID: 5678, rootCertificates: [pki.root]),
                now: { now })
            apps.insert(ServedApp(bundleID: "com.epilogue.app", catalog: try CatalogLoader().load(directory: examples.appendingPathComponent("Epilogue")),
                                  verifiers: [epilogue]), at: 0)
        }
        let signed = ProcessInfo.processInfo.environment["ENTITLE_LOAD_SIGNED"] != "0"
        var configuration = ServerConfiguration(
            http: HTTPConfiguration(host: "127.0.0.1", port: port, requestsOnEventLoops: requestsOnEventLoops), ledger: .store(store), apps: apps, keys: keys,
            analyticsRefreshInterval: nil, now: { now }, logger: logger,
            signer: signed ? CustomerInfoSigner(base64URL: CustomerInfoSigner.generateKey()) : nil)
        // Webhooks off: no worker at all. On: an endpoint for every event, published and sent every second (the default).
        configuration.webhookInterval = webhooks == nil ? nil : .seconds(1)
        if let webhooks {
            try await store.forApp("com.screentimerewards").webhookStore().addEndpoint(WebhookEndpoint(
                id: "we_load", app: "com.screentimerewards", url: webhooks.absoluteString, eventTypes: types,
                secrets: types == [WebhookEndpoint.forwardedNotification] ? [] : ["whsec_load_test_secret_01"],
                createdAt: now))
        }
        let app = try await buildApplication(configuration: configuration)
        let product = "com.screentimerewards.family.monthly"

        return try await withThrowingTaskGroup(of: Double.self) { group in
            let server = ServiceGroup(configuration: .init(services: [app], logger: logger))
            group.addTask {
                try await server.run()
                return 0
            }
            let http = HTTPClient(
                eventLoopGroupProvider: .singleton,
                configuration: .init(connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: connections)))
            try await waitForServer(http)

            // Subscribers link their purchases through the app.
            for user in 0..<subscribers {
                let transaction = apple.subscription(product, original: "L\(user)", id: "L\(user)-0", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
                let status = try await post(http, "/v1/subscribers/user-\(user)/transactions", key: "sk_load_test_key_000001",
                                            body: SubmitTransactionRequest(signedTransaction: pki.sign(transaction)))
                precondition(status == 200, "linking failed: \(status)")
            }
            // Renewal notifications, signed beforehand.
            let bodies: [ByteBuffer] = (0..<notifications).map { index in
                let user = index % subscribers
                let period = index / subscribers + 1
                let start = ReferenceTime.day(Double(period) * 31)
                let transaction = apple.subscription(product, original: "L\(user)", id: "L\(user)-\(period)", purchase: start,
                                                     expires: start.addingTimeInterval(31 * 86_400), reason: .renewal)
                let payload = ResponseBodyV2DecodedPayload(
                    notificationType: .didRenew, notificationUUID: UUID().uuidString,
                    data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: "com.screentimerewards", signedTransactionInfo: pki.sign(transaction)),
                    version: "2.0", signedDate: start)
                return ByteBuffer(bytes: try! JSONEncoder().encode(AppStoreNotificationRequest(signedPayload: pki.sign(payload))))
            }
            let clock = ContinuousClock()
            let cpuBefore = processCPUSeconds()
            let elapsed = try await clock.measure {
                try await withThrowingTaskGroup(of: Void.self) { senders in
                    for sender in 0..<Self.senders {
                        senders.addTask {
                            for index in stride(from: sender, to: bodies.count, by: Self.senders) {
                                let status = try await post(http, "/v1/app-store/notifications", key: nil, raw: bodies[index])
                                precondition(status == 200, "a notification was refused: \(status)")
                            }
                        }
                    }
                    try await senders.waitForAll()
                }
            }
            let ingestion = Double(notifications) / seconds(elapsed)
            let events = try await store.forApp("com.screentimerewards").eventCount()
            var webhookRow = ""
            if webhooks != nil {
                // How long after the last acknowledgement every event's webhooks are written and delivered.
                let webhookStore = store.forApp("com.screentimerewards").webhookStore()
                let settle = try await clock.measure {
                    while true {
                        let counts = try await webhookStore.deliveryCounts()
                        let unread = try await webhookStore.unreadEvents(consumer: "webhooks")
                        if counts[.pending, default: 0] == 0, unread == 0 { break }
                        try await Task.sleep(for: .milliseconds(20))
                    }
                }
                let delivered = try await webhookStore.deliveryCounts()[.delivered, default: 0]
                webhookRow = "| webhooks delivered, and the time from the last acknowledgement until all were | \(delivered) in \(String(format: "%.1f", seconds(settle))) s |\n"
            }
            // Everything the process spent (server, webhooks, load generator, receiver) from the first
            // notification until the webhooks settled, per notification.
            let cpu = (processCPUSeconds() - cpuBefore) / Double(notifications) * 1000

            // The server's first subscriber reads, all at once, then the same again, on connections the
            // client opened before (with as many `/health` requests at once).
            _ = try await together(http, path: { _ in "/health" }, key: nil)
            let firstReads = try await together(http, path: { "/v1/subscribers/user-\($0)" }, key: "sk_load_test_key_000001")
            let nextReads = try await together(http, path: { "/v1/subscribers/user-\($0)" }, key: "sk_load_test_key_000001")
            let health = try await fixedRate(http, path: { _ in "/health" }, key: nil)
            let subscriber = try await fixedRate(http, path: { "/v1/subscribers/user-\($0 % subscribers)" }, key: "sk_load_test_key_000001")
            // `/ready`: one `SELECT 1` on the same path as a subscriber's read, and nothing else: the
            // least any request that reads the ledger costs.
            let ready = try await fixedRate(http, path: { _ in "/ready" }, key: nil)
            let healthCapacity = try await saturation(http, path: { _ in "/health" }, key: nil)
            let subscriberCapacity = try await saturation(http, path: { "/v1/subscribers/user-\($0 % subscribers)" }, key: "sk_load_test_key_000001")
            let readyCapacity = try await saturation(http, path: { _ in "/ready" }, key: nil)
            print("""
                ## \(engine)\(signed ? "" : ", answers unsigned"), \(connections) connections

                | measure | result |
                |---|---:|
                | notification ingestion (\(senders) concurrent senders, \(notifications) notifications, 200 after commit) | \(Int(ingestion))/s |
                | ledger events after the run | \(events) |
                | CPU time of the process per notification, until webhooks settled | \(String(format: "%.2f", cpu)) ms |
                | the server's first \(saturationClients) GET /v1/subscribers/{id} at once, then the next \(saturationClients): the last answered after | \(firstReads) / \(nextReads) ms |
                | GET /health at \(rate) req/s for \(seconds) s: p50 / p99 / max | \(health.p50) / \(health.p99) / \(health.max) ms |
                | GET /v1/subscribers/{id} at \(rate) req/s for \(seconds) s: p50 / p99 / max | \(subscriber.p50) / \(subscriber.p99) / \(subscriber.max) ms |
                | GET /ready (one SELECT 1 as a read asks it) at \(rate) req/s for \(seconds) s: p50 / p99 / max | \(ready.p50) / \(ready.p99) / \(ready.max) ms |
                | GET /health at saturation (\(saturationClients) clients, closed loop, \(saturationSeconds) s) | \(Int(healthCapacity.rate))/s |
                | GET /v1/subscribers/{id} at saturation, and its ratio to /health | \(Int(subscriberCapacity.rate))/s (\(String(format: "%.2f", subscriberCapacity.rate / healthCapacity.rate))) |
                | GET /ready at saturation, and its ratio to /health | \(Int(readyCapacity.rate))/s (\(String(format: "%.2f", readyCapacity.rate / healthCapacity.rate))) |
                | requests that failed | \(health.failures + subscriber.failures + ready.failures + healthCapacity.failures + subscriberCapacity.failures + readyCapacity.failures) |
                \(webhookRow)
                """)
            try await http.shutdown()
            await server.triggerGracefulShutdown()
            try await group.waitForAll()
            return ingestion
        }
    }

    /// User and system CPU time of this process so far.
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if canImport(Glibc)
        getrusage(RUSAGE_SELF.rawValue, &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        return Double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec) + Double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    static func waitForServer(_ http: HTTPClient) async throws {
        for _ in 0..<100 {
            if (try? await get(http, "/health", key: nil)) == 200 { return }
            try await Task.sleep(for: .milliseconds(50))
        }
        fatalError("the server did not start")
    }

    static let saturationClients = 32
    static let saturationSeconds = 3

    /// Requests answered per second by `saturationClients` clients each sending its next request as
    /// soon as the last is answered (closed loop), for `saturationSeconds`; request `n` asks `path(n)`.
    static func saturation(_ http: HTTPClient, path: @escaping @Sendable (Int) -> String, key: String?) async throws -> (rate: Double, failures: Int) {
        let clock = ContinuousClock()
        let startMonotonic = monotonic()
        let end = clock.now + .seconds(saturationSeconds)
        let start = clock.now
        let counts = try await withThrowingTaskGroup(of: (Int, Int).self) { group in
            for client in 0..<saturationClients {
                group.addTask {
                    var (answered, failed, index) = (0, 0, client)
                    while clock.now < end {
                        if (try? await get(http, path(index), key: key)) == 200 { answered += 1 } else { failed += 1 }
                        index += saturationClients
                    }
                    return (answered, failed)
                }
            }
            return try await group.reduce(into: (0, 0)) { $0.0 += $1.0; $0.1 += $1.1 }
        }
        let rate = Double(counts.0) / seconds(clock.now - start)
        if ProcessInfo.processInfo.environment["ENTITLE_LOAD_PHASES"] == "1" {
            phase("saturation \(path(0))", from: startMonotonic)
        }
        return (rate, counts.1)
    }

    /// CLOCK_MONOTONIC now, in seconds: the clock `perf record -k CLOCK_MONOTONIC` stamps samples with.
    static func monotonic() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// Prints a phase's CLOCK_MONOTONIC window to standard error, as `perf report --time` takes it.
    static func phase(_ name: String, from start: Double) {
        FileHandle.standardError.write(Data(String(format: "phase %@: --time %.6f,%.6f\n", name, start, monotonic()).utf8))
    }

    /// Sends `saturationClients` requests at once, request `n` asking `path(n)`, and returns when the
    /// last was answered, in milliseconds ("-" if one failed).
    static func together(_ http: HTTPClient, path: @escaping @Sendable (Int) -> String, key: String?) async throws -> String {
        let clock = ContinuousClock()
        let start = clock.now
        let answered = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<saturationClients {
                group.addTask { (try? await get(http, path(index), key: key)) == 200 }
            }
            return try await group.reduce(true) { $0 && $1 }
        }
        return answered ? String(format: "%.2f", seconds(clock.now - start) * 1000) : "-"
    }

    /// Sends requests at a fixed rate regardless of responses (open loop) and reports latencies;
    /// request `n` asks `path(n)`.
    static func fixedRate(
        _ http: HTTPClient, path: @escaping @Sendable (Int) -> String, key: String?
    ) async throws -> (p50: String, p99: String, max: String, failures: Int) {
        let total = rate * seconds
        let interval = Duration.nanoseconds(1_000_000_000 / rate)
        let clock = ContinuousClock()
        let start = clock.now
        let latencies = try await withThrowingTaskGroup(of: (Int, Double?).self) { group in
            for index in 0..<total {
                let due = start + interval * index
                try await clock.sleep(until: due)
                group.addTask {
                    let status = try? await get(http, path(index), key: key)
                    guard status == 200 else { return (index, nil) }
                    // Latency from when the request was due, so queueing behind a slow response counts.
                    return (index, seconds(clock.now - due) * 1000)
                }
            }
            var results = [Double?](repeating: nil, count: total)
            for try await (index, latency) in group { results[index] = latency }
            return results
        }
        if ProcessInfo.processInfo.environment["ENTITLE_LOAD_TIMELINE"] == "1" {
            printTimeline(latencies, path: path(0))
        }
        let succeeded = latencies.compactMap { $0 }.sorted()
        func percentile(_ p: Double) -> String {
            guard !succeeded.isEmpty else { return "-" }
            return String(format: "%.2f", succeeded[min(succeeded.count - 1, Int(Double(succeeded.count) * p))])
        }
        return (percentile(0.5), percentile(0.99), String(format: "%.2f", succeeded.last ?? 0), latencies.count - succeeded.count)
    }

    /// The 125 ms windows of a fixed-rate phase (requests in the order they were due) holding a
    /// request slower than 5 ms or failed: when it started, its median and slowest, how many were slow.
    static func printTimeline(_ latencies: [Double?], path: String) {
        let window = rate / 8
        print("timeline of GET \(path)… at \(rate) req/s: the 125 ms windows with a request over 5 ms or failed")
        for first in stride(from: 0, to: latencies.count, by: window) {
            let part = latencies[first..<min(first + window, latencies.count)]
            let answered = part.compactMap { $0 }.sorted()
            let slow = answered.filter { $0 > 5 }.count
            guard slow > 0 || answered.count < part.count else { continue }
            let spread = answered.last.map { String(format: "p50 %.2f ms, max %.2f ms", answered[answered.count / 2], $0) } ?? "none answered"
            print("  \(String(format: "%.3f", Double(first) / Double(rate))) s: \(spread), \(slow) of \(part.count) over 5 ms, \(part.count - answered.count) failed")
        }
    }

    /// The app keyed requests name (`Entitle-App`), when the server serves several.
    @TaskLocal static var app: String?

    static func get(_ http: HTTPClient, _ path: String, key: String?) async throws -> UInt {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if key != nil, let app { request.headers.add(name: "Entitle-App", value: app) }
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }

    static func post<Body: Encodable>(_ http: HTTPClient, _ path: String, key: String?, body: Body) async throws -> UInt {
        try await post(http, path, key: key, raw: ByteBuffer(bytes: try JSONEncoder().encode(body)))
    }

    static func post(_ http: HTTPClient, _ path: String, key: String?, raw: ByteBuffer) async throws -> UInt {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)\(path)")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
        if key != nil, let app { request.headers.add(name: "Entitle-App", value: app) }
        request.body = .bytes(raw)
        let response = try await http.execute(request, timeout: .seconds(30))
        _ = try await response.body.collect(upTo: 1 << 20)
        return response.status.code
    }
}
