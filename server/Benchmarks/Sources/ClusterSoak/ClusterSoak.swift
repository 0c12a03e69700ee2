import AppStoreModels
import AppStoreServerAPI
import AsyncHTTPClient
import BenchmarkSupport
import Crypto
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import LedgerPopulation
import LocalAppStore
import Logging
import NIOCore
import Synchronization

/// Two `entitle serve` instances (release binaries, their own processes) on one PostgreSQL database
/// holding a ``SignedPopulation`` under mixed load for a fixed time, the second SIGKILLed and started
/// again at a fixed interval: signed renewal notifications, subscriber reads and usage records sent to
/// the instances in turn (to the other when one doesn't answer), the analytics overview, the
/// webhook publisher delivering to an endpoint on loopback, and reconciliation passes with the App
/// Store Server API's local stand-in. At the end: every acknowledged notification and usage record
/// looked up in the ledger, every webhook delivery written counted at the endpoint, which instance
/// published webhooks and reconciled over time (from each one's `/metrics`), and both instances'
/// resident memory every 10 s.
///
///     swift build -c release --product entitle
///     swift run --package-path Benchmarks -c release LoadPopulation --subscribers 1000000 --ledger postgres://… --catch-up
///     swift run --package-path Benchmarks -c release ClusterSoak --ledger postgres://… [--subscribers 1000000]
///         [--minutes 30] [--kill-every 300]
///
/// SUBSCRIBERS is how many of the population (seed 42) the ledger holds: reads and renewals are drawn
/// from them. `ENTITLE_BINARY` names the server binary (default `.build/release/entitle`).
///
/// `--upgrade-to BINARY` plays a rolling upgrade instead of the kills (docs/operations.md, "Upgrading"): both
/// instances start on `ENTITLE_BINARY` (the previous release), then at a third of the run A is stopped
/// gracefully (SIGINT) and started on BINARY, which migrates the database, while B, still the previous
/// release, serves on; at two thirds B is upgraded the same way. No request may fail, nothing acknowledged
/// may be lost.
@main
enum ClusterSoak {
    static let ports = [18_130, 18_131]
    static let sinkPort = 18_132
    static let applePort = 18_133
    static let key = "sk_cluster_soak_key_0001"
    static let webhookSecret = "whsec_cluster_soak_0123456789abcdef"
    static let notificationRate = 100
    static let readRate = 300
    static let usageRate = 50
    static let overviewEvery = Duration.seconds(15)
    static let reconcileEvery = 300
    static let sampleEvery = Duration.seconds(10)

    struct Options {
        var ledger = ""
        var subscribers = 1_000_000
        var minutes = 30.0
        var killEvery = 300.0
        var upgradeTo: String?
    }

    static func main() async throws {
        let options = try parse(Array(CommandLine.arguments.dropFirst()))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-cluster-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let binary = ProcessInfo.processInfo.environment["ENTITLE_BINARY"] ?? root.appendingPathComponent(".build/release/entitle").path
        guard FileManager.default.isExecutableFile(atPath: binary) else {
            say("no server binary at \(binary): run `swift build -c release --product entitle` first, or set ENTITLE_BINARY")
            exit(2)
        }
        var logger = Logger(label: "entitle.cluster-soak")
        logger.logLevel = .error
        let database = try LedgerDatabase(url: options.ledger)
        let population = try SignedPopulation(seed: 42)
        let apps = SignedPopulation.apps.map(\.bundleID)

        // What the instances are given: each app's catalog, the PKI signing this run's data, Apple's
        // stand-in and its key for the first app, the webhook endpoint.
        let catalogs = try SignedPopulation.catalogs(from: root, into: folder)
        let pki = try TestPKI(reference: Date())
        let rootFile = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(pki.root)).write(to: rootFile)
        let teamKey = InAppPurchaseKey(privateKey: P256.Signing.PrivateKey(), keyID: "SOAKKEY001", issuerID: "issuer-cluster-soak")
        let keyFile = folder.appendingPathComponent("SubscriptionKey_SOAKKEY001.p8")
        try teamKey.privateKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let apple = AppleStandIn(
            api: LocalServerAPI(
                credentials: .init(keyID: teamKey.keyID, issuerID: teamKey.issuerID, bundleID: apps[0], publicKey: teamKey.privateKey.publicKey),
                pageSize: 20, now: { Date() }),
            port: applePort)
        try await apple.start()
        let sink = DeliverySink(port: sinkPort)
        try await sink.start()
        let arguments = [
            "--host", "127.0.0.1", "--database", options.ledger, "--root-certificate", rootFile.path, "--environment", "sandbox",
            "--secret-key", key, "--public-key-secret", "cluster-soak", "--webhook-url", sink.url, "--webhook-secret", webhookSecret,
            "--app-store-key", "\(apps[0])=\(keyFile.path)", "--app-store-key-id", "\(apps[0])=\(teamKey.keyID)",
            "--app-store-issuer-id", "\(apps[0])=\(teamKey.issuerID)", "--app-store-api-url", "http://127.0.0.1:\(applePort)",
            "--reconcile-interval", "\(reconcileEvery)",
        ] + catalogs.flatMap { ["--catalog", $0.path] }
        let instances = ports.enumerated().map { number, port in
            Instance(name: number == 0 ? "A" : "B", port: port, binary: binary, arguments: arguments,
                     log: folder.appendingPathComponent("serve-\(number == 0 ? "A" : "B").log"))
        }
        say("cluster soak: \(instances.count) instances on \(database), \(options.subscribers) subscribers, \(options.minutes) minutes, "
            + (options.upgradeTo.map { "a rolling upgrade from \(binary) to \($0)" } ?? "instance B SIGKILLed every \(Int(options.killEvery)) s")
            + "; logs in \(folder.path)")

        let http = HTTPClient(
            eventLoopGroupProvider: .singleton,
            configuration: .init(redirectConfiguration: .disallow, connectionPool: .init(idleTimeout: .seconds(30), concurrentHTTP1ConnectionsPerHostSoftLimit: 128)))
        let traffic = Traffic(http: http, instances: instances, key: key)
        let clock = ContinuousClock()
        // B first: the leases start with the instance that will be killed, so the first kill moves them.
        for instance in instances.reversed() {
            let started = clock.now
            try instance.start()
            guard try await waitReady(instance, http: http) else { throw Failure("instance \(instance.name) never became ready") }
            say(String(format: "  instance %@ ready in %.1f s, RSS %d MB", instance.name, (clock.now - started).inSeconds, instance.residentKB() / 1024))
        }

        // Where the ledger is, and what the webhooks had delivered, before the load.
        let check = LedgerCheck(database: database, logger: logger, apps: apps)
        try await check.markStart()
        let before = try await webhookStatus(traffic, apps: apps)

        // Renewals of purchases drawn uniformly from the population, each app's own.
        var generator = SeededGenerator(seed: 7)
        var purchases: [(app: String, original: String, productID: String)] = []
        while purchases.count < 20_000 {
            if let purchase = population.purchase(of: Int.random(in: 0..<options.subscribers, using: &generator)) {
                purchases.append((purchase.app.bundleID, purchase.original, purchase.productID))
            }
        }
        let picks = purchases
        let run = Int(Date().timeIntervalSince1970)
        let readers = max(20_000, Int(options.minutes * 60) * usageRate / 2 + 1)
        let seed = population.seed
        let subscribers = options.subscribers

        let begin = clock.now
        let end = begin + .seconds(options.minutes * 60)
        let monitor = Monitor(instances: instances, http: http, app: apps[0])
        await withDiscardingTaskGroup { group in
            group.addTask { await monitor.sample(every: sampleEvery, from: begin, until: end) }
            if let newer = options.upgradeTo {
                group.addTask {
                    // A rolling upgrade: A, then B, each stopped gracefully and started on the newer binary.
                    for (index, instance) in instances.enumerated() {
                        try? await clock.sleep(until: begin + .seconds(options.minutes * 60 * Double(index + 1) / 3))
                        let stopping = clock.now
                        let status = instance.stop()
                        let stopped = (clock.now - stopping).inSeconds
                        instance.upgrade(to: newer)
                        do {
                            try instance.start()
                            let ready = try await waitReady(instance, http: http)
                            let took = (clock.now - stopping).inSeconds
                            instance.noteRestart(at: Int((stopping - begin).inSeconds), ready: ready ? took : -1)
                            say(String(format: "  %4d s: %@ stopped (SIGINT, exit %d, %.1f s) and started on the newer binary, ready %.1f s after the stop",
                                       Int((stopping - begin).inSeconds), instance.name, status, stopped, took))
                        } catch {
                            say("  \(instance.name) could not be started on the newer binary: \(error)")
                        }
                    }
                }
            } else {
            group.addTask {
                // Instance B: killed without warning at every interval, then started again.
                var next = begin + .seconds(options.killEvery)
                while next < end {
                    try? await clock.sleep(until: next)
                    instances[1].kill()
                    let killed = clock.now
                    do {
                        try instances[1].start()
                        let ready = try await waitReady(instances[1], http: http)
                        let took = (clock.now - killed).inSeconds
                        instances[1].noteRestart(at: Int((killed - begin).inSeconds), ready: ready ? took : -1)
                        say(String(format: "  %4d s: B SIGKILLed; started again, ready in %.1f s", Int((killed - begin).inSeconds), took))
                    } catch {
                        say("  B could not be started again: \(error)")
                    }
                    next = next + .seconds(options.killEvery)
                }
            }
            }
            group.addTask {
                await traffic.schedule("notification (renewal)", rate: notificationRate, until: end) { index in
                    let purchase = picks[(index &* 7_919) % picks.count]
                    let now = Date()
                    let transaction = AppleFacts(bundleID: purchase.app).subscription(
                        purchase.productID, original: purchase.original, id: "\(purchase.original)-soak-\(run)-\(index)", purchase: now,
                        expires: now + 31 * 86_400, signed: now, reason: .renewal)
                    let uuid = UUID().uuidString.lowercased()
                    let payload = ResponseBodyV2DecodedPayload(
                        notificationType: .didRenew, notificationUUID: uuid,
                        data: NotificationData(environment: .sandbox, bundleId: purchase.app, signedTransactionInfo: pki.sign(transaction)),
                        version: "2.0", signedDate: now)
                    let signed = pki.sign(payload)
                    let body = try? JSONEncoder().encode(AppStoreNotificationRequest(signedPayload: signed))
                    let outcome = await traffic.send(first: index, post: true, path: "/v1/app-store/notifications", app: nil, body: body, authorized: false)
                    if (200..<300).contains(outcome.status) {
                        traffic.acknowledged.withLock { _ = $0.notifications.insert(uuid) }
                    } else if purchase.app == apps[0] {
                        // Never delivered: Apple's Notification History still has it, for reconciliation.
                        apple.api.record(notification: signed, at: now)
                    }
                    return outcome
                }
            }
            group.addTask {
                await traffic.schedule("subscriber read", rate: readRate, until: end) { index in
                    let picked = (index &* 7_919) % subscribers
                    return await traffic.send(
                        first: index, post: false, path: "/v1/subscribers/user-\(picked)",
                        app: SignedPopulation.app(of: picked, seed: seed).bundleID, body: nil)
                }
            }
            group.addTask {
                await traffic.schedule("usage (second app)", rate: usageRate, until: end) { index in
                    let reader = "reader-\(run)-\(index % readers)"
                    let key = "soak-\(run)-\(index)"
                    let body = try? JSONEncoder().encode(RecordUsageRequest(feature: "conversations", idempotencyKey: key))
                    let outcome = await traffic.send(first: index, post: true, path: "/v1/subscribers/\(reader)/usage", app: apps[1], body: body)
                    if (200..<300).contains(outcome.status) {
                        traffic.acknowledged.withLock { _ = $0.usage.insert("usage:\(reader):conversations:\(key)") }
                    }
                    return outcome
                }
            }
            group.addTask {
                await traffic.schedule("analytics overview", rate: 0, every: overviewEvery, until: end) { index in
                    await traffic.send(first: index, post: false, path: "/v1/analytics/overview", app: apps[0], body: nil)
                }
            }
        }
        say("load over after \(Int((clock.now - begin).inSeconds)) s; waiting for the webhooks to drain…")

        // Every delivery written, delivered: the publisher caught up and nothing pending.
        let drainStarted = clock.now
        var after = try await webhookStatus(traffic, apps: apps)
        while after.pending + after.unpublished > 0, clock.now - drainStarted < .seconds(600) {
            try await Task.sleep(for: .seconds(2))
            after = try await webhookStatus(traffic, apps: apps)
        }
        // A delivery marked delivered may still be on its way to the sink's counter.
        try await Task.sleep(for: .seconds(2))
        let drained = (clock.now - drainStarted).inSeconds
        let ledger = try await check.collect()
        let acknowledged = traffic.acknowledged.withLock { $0 }
        let rss = monitor.samples()
        let exits = instances.map { $0.stop() }
        try await http.shutdown()
        await sink.stop()
        await apple.stop()

        report(
            options: options, traffic: traffic, acknowledged: acknowledged, ledger: ledger, before: before, after: after, drained: drained,
            sink: sink.counts, restarts: options.upgradeTo == nil ? instances[1].restarts : instances.flatMap(\.restarts), rss: rss, exits: exits,
            instances: instances)
    }

    static func report(
        options: Options, traffic: Traffic, acknowledged: (notifications: Set<String>, usage: Set<String>), ledger: LedgerCheck.Found,
        before: WebhookTotals, after: WebhookTotals, drained: Double, sink: (distinct: Int, requests: Int), restarts: [(at: Int, ready: Double)],
        rss: [Monitor.Sample], exits: [Int32], instances: [Instance]
    ) {
        say("\n| requests | sent | 2xx | failed | answered by the other instance | p50 | p99 |")
        say("|---|---:|---:|---:|---:|---:|---:|")
        for row in traffic.report() { say(row) }
        for line in traffic.failures() { say(line) }

        let lostNotifications = acknowledged.notifications.subtracting(ledger.notifications)
        let lostUsage = acknowledged.usage.subtracting(ledger.usage)
        say("\nacknowledged notifications: \(acknowledged.notifications.count), in the ledger: \(acknowledged.notifications.count - lostNotifications.count), "
            + "lost: \(lostNotifications.count); notifications stored in all: \(ledger.notifications.count) "
            + "(of which by reconciliation: \(ledger.reconciled))")
        say("acknowledged usage records: \(acknowledged.usage.count), in the ledger: \(acknowledged.usage.count - lostUsage.count), lost: \(lostUsage.count); "
            + "usage records stored in all: \(ledger.usage.count)")
        say("events appended during the soak: \(ledger.events)")
        say("webhooks: \(after.delivered - before.delivered) deliveries delivered, \(after.failed - before.failed) failed, \(after.pending) pending, "
            + "\(after.unpublished) events unpublished (drained \(String(format: "%.0f", drained)) s after the load); "
            + "the endpoint got \(sink.distinct) distinct webhook events in \(sink.requests) requests")
        say("restarts (B killed, or A then B upgraded): \(restarts.count); ready again after " + restarts.map { String(format: "%.1f s", $0.ready) }.joined(separator: ", "))

        say("\n| elapsed | A RSS | A heap in use | B RSS | publishes webhooks | webhooks delivered by A / B | reconciliation passes completed by A / B |")
        say("|---:|---:|---:|---:|---|---:|---:|")
        var moves: [Int] = []
        var last: String?
        for sample in rss {
            let publisher = sample.publishing == [true, false] ? "A" : sample.publishing == [false, true] ? "B" : nil
            if let publisher, let previous = last, previous != publisher { moves.append(sample.seconds) }
            if let publisher { last = publisher }
            if sample.seconds % 60 < 10 || sample.seconds == rss.last?.seconds {
                say("| \(sample.seconds) s | \(sample.kb[0] / 1024) MB | \(sample.heapKB[0] / 1024) MB | \(sample.kb[1] / 1024) MB | \(publisher ?? "-") | "
                    + "\(sample.deliveredTotal[0]) / \(sample.deliveredTotal[1]) | \(sample.reconciled[0]) / \(sample.reconciled[1]) |")
            }
        }
        say("the webhooks lease moved between instances \(moves.count) times (seen at " + moves.map { "\($0) s" }.joined(separator: ", ") + ")")
        let warm = rss.filter { $0.seconds >= 120 }
        if let first = warm.first, let final = warm.last, let peak = warm.map({ $0.kb[0] }).max() {
            say(String(format: "instance A (never killed): %d MB after warm-up (%d s), %d MB at the end (%+.1f%%), highest %d MB",
                         first.kb[0] / 1024, first.seconds, final.kb[0] / 1024, Double(final.kb[0] - first.kb[0]) / Double(max(1, first.kb[0])) * 100,
                         peak / 1024))
            let heaps = warm.map { $0.heapKB[0] }.filter { $0 > 0 }
            if let low = heaps.min(), let high = heaps.max(), let last = heaps.last, let start = heaps.first {
                say(String(format: "instance A's heap in use: %d MB after warm-up, %d MB at the end (%+.1f%%), between %d and %d MB",
                             start / 1024, last / 1024, Double(last - start) / Double(max(1, start)) * 100, low / 1024, high / 1024))
            }
        }
        say("exit status after SIGINT: A \(exits[0]), B \(exits[1])")
        for instance in instances {
            for pass in reconciliationPasses(instance.log) { say("reconciliation pass completed by \(instance.name): \(pass)") }
        }
    }

    /// What each completed reconciliation pass logged: its duration, the notifications read and added,
    /// the purchases checked.
    static func reconciliationPasses(_ log: URL) -> [String] {
        guard let text = try? String(contentsOf: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").filter { $0.hasSuffix("reconciliation pass") }.map { line in
            line.split(separator: " ").filter { field in
                ["duration.seconds=", "notifications.read=", "notifications.added=", "purchases.checked=", "status.added="].contains { field.hasPrefix($0) }
            }.joined(separator: " ")
        }
    }

    /// Waits until the instance answers `/ready` with 200 (false after 3 minutes).
    static func waitReady(_ instance: Instance, http: HTTPClient) async throws -> Bool {
        for _ in 0..<1_800 {
            if let response = try? await http.execute(HTTPClientRequest(url: instance.base + "/ready"), timeout: .seconds(5)) {
                _ = try? await response.body.collect(upTo: 1 << 20)
                if response.status == .ok { return true }
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        return false
    }

    struct WebhookTotals {
        var delivered = 0
        var failed = 0
        var pending = 0
        var unpublished = 0
    }

    /// `GET /v1/webhooks/status` of every app, summed.
    static func webhookStatus(_ traffic: Traffic, apps: [String]) async throws -> WebhookTotals {
        var totals = WebhookTotals()
        for app in apps {
            var request = HTTPClientRequest(url: traffic.instances[0].base + "/v1/webhooks/status")
            request.headers.add(name: "Authorization", value: "Bearer \(key)")
            request.headers.add(name: "Entitle-App", value: app)
            let response = try await traffic.http.execute(request, timeout: .seconds(30))
            let body = try await response.body.collect(upTo: 1 << 20)
            guard response.status == .ok, let status = try JSONSerialization.jsonObject(with: Data(buffer: body)) as? [String: Any] else {
                throw Failure("webhook status of \(app): HTTP \(response.status.code)")
            }
            totals.delivered += status["delivered"] as? Int ?? 0
            totals.failed += status["failed"] as? Int ?? 0
            totals.pending += status["pending"] as? Int ?? 0
            totals.unpublished += status["unpublishedEvents"] as? Int ?? 0
        }
        return totals
    }

    static func parse(_ arguments: [String]) throws -> Options {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            guard let value = rest.popFirst() else { throw Failure("\(flag) needs a value") }
            switch flag {
            case "--ledger": options.ledger = value
            case "--subscribers": options.subscribers = Int(value.replacingOccurrences(of: "_", with: "")) ?? options.subscribers
            case "--minutes": options.minutes = Double(value) ?? options.minutes
            case "--kill-every": options.killEvery = Double(value) ?? options.killEvery
            case "--upgrade-to":
                guard FileManager.default.isExecutableFile(atPath: value) else { throw Failure("--upgrade-to names no executable: \(value)") }
                options.upgradeTo = value
            default: throw Failure("unknown option \(flag)")
            }
        }
        guard options.ledger.hasPrefix("postgres") else { throw Failure("--ledger postgres://… is required: instances share one PostgreSQL database") }
        return options
    }
}

struct Failure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
