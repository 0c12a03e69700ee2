import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// Kill -9 while notifications are being posted: every notification acknowledged with 200 must be in
/// the ledger afterwards, and the projections must equal a rebuild.
@Suite("Durability")
struct DurabilityTests {
    static let product = "com.screentimerewards.family.monthly"

    @Test("SIGKILL during ingestion loses no acknowledged notification and leaves projections equal to a rebuild")
    func killDuringIngestion() async throws {
        let (folder, pki, rootFile) = try Self.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let port = TestPorts.random()
        let server = try Self.startServer(folder: folder, rootFile: rootFile, port: port)
        defer { server.signal(SIGKILL) }
        try await Self.waitForHealth(port: port, server)

        // Ten subscribers link their purchases through the app.
        for user in 0..<10 {
            let transaction = apple.subscription(Self.product, original: "9\(user)", id: "9\(user)-0", purchase: ReferenceTime.day(0), expires: ReferenceTime.day(31))
            let status = try await Self.post(port: port, path: "/v1/subscribers/user-\(user)/transactions", key: "sk_durability_test_0001",
                                             body: SubmitTransactionRequest(signedTransaction: pki.sign(transaction)))
            #expect(status == 200)
        }

        // Renewal notifications from two concurrent senders; the server is killed part way through.
        let notifications: [(uuid: String, signed: String)] = (1..<40).flatMap { period in
            (0..<10).map { user in
                let uuid = UUID().uuidString
                let start = ReferenceTime.day(Double(period) * 31)
                let transaction = apple.subscription(Self.product, original: "9\(user)", id: "9\(user)-\(period)", purchase: start,
                                                     expires: start.addingTimeInterval(31 * 86_400), reason: .renewal)
                let payload = ResponseBodyV2DecodedPayload(
                    notificationType: .didRenew, notificationUUID: uuid,
                    data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: "com.screentimerewards", signedTransactionInfo: pki.sign(transaction)),
                    version: "2.0", signedDate: start)
                return (uuid, pki.sign(payload))
            }
        }
        let acknowledged = Acknowledged()
        let killAfter = 120
        await withTaskGroup(of: Void.self) { group in
            for sender in 0..<2 {
                group.addTask {
                    for index in stride(from: sender, to: notifications.count, by: 2) {
                        let (uuid, signed) = notifications[index]
                        guard let status = try? await Self.post(port: port, path: "/v1/app-store/notifications", key: nil,
                                                                body: AppStoreNotificationRequest(signedPayload: signed)) else { return }
                        if status == 200 { await acknowledged.add(uuid) }
                        if await acknowledged.count >= killAfter { server.signal(SIGKILL) }
                    }
                }
            }
        }
        // Killed part way through, or now if the senders stopped before (the counts below then fail).
        server.signal(SIGKILL)
        #expect(await server.exit() == .init(status: SIGKILL, signalled: true))
        let acked = await acknowledged.all
        #expect(acked.count >= killAfter)
        #expect(acked.count < notifications.count)

        let store = try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle-data/entitle.sqlite").path).forApp("com.screentimerewards")
        var stored = Set<String>()
        for user in 0..<10 {
            for event in try await store.events(appUserID: "user-\(user)") {
                if let uuid = event.notificationUUID { stored.insert(uuid) }
            }
        }
        #expect(acked.isSubset(of: stored), "acknowledged but missing: \(acked.subtracting(stored).count)")
        var live: [AppUserID: SubscriberFacts] = [:]
        for id in try await store.subscriberIDs() { live[id] = try await store.projection(appUserID: id) }
        #expect(live.count == 10)
        _ = try await store.rebuildProjections()
        for (id, facts) in live {
            #expect(try await store.projection(appUserID: id) == facts, "\(id)")
        }
        await store.close()
    }

    @Test("SIGKILL while webhooks are published and sent: after a restart every change's event arrives, a repeat only with its ID and body")
    func killWhileSendingWebhooks() async throws {
        try await WebhookReceiver.run { url, receiver in
            let (folder, pki, rootFile) = try Self.setUp()
            defer { try? FileManager.default.removeItem(at: folder) }
            let apple = AppleFacts(bundleID: "com.screentimerewards")
            let port = TestPorts.random()
            // A short lease: the restarted server takes over the killed one's publishing within 2 s, not 15.
            let webhookFlags = ["--webhook-url", url.absoluteString, "--webhook-secret", "whsec_durability_0001", "--webhook-lease", "2"]
            let server = try Self.startServer(folder: folder, rootFile: rootFile, port: port, extra: webhookFlags)
            defer { server.signal(SIGKILL) }
            try await Self.waitForHealth(port: port, server)

            // Twenty subscribers buy through the app, then auto-renew is turned off and on again, one
            // notification after another; the server is killed part way through.
            let now = Date()
            var notifications: [String] = []
            for user in 0..<20 {
                let transaction = apple.subscription(Self.product, original: "8\(user)", id: "8\(user)-0", purchase: now.addingTimeInterval(-86_400),
                                                     expires: now.addingTimeInterval(29 * 86_400))
                let status = try await Self.post(port: port, path: "/v1/subscribers/user-\(user)/transactions", key: "sk_durability_test_0001",
                                                 body: SubmitTransactionRequest(signedTransaction: pki.sign(transaction)))
                #expect(status == 200)
                for (step, autoRenew) in [AutoRenewStatus.off, .on, .off].enumerated() {
                    let renewal = apple.renewal(original: "8\(user)", product: Self.product, autoRenew: autoRenew, signed: now.addingTimeInterval(Double(step + 1)))
                    let payload = ResponseBodyV2DecodedPayload(
                        notificationType: .didChangeRenewalStatus, subtype: autoRenew == .on ? .autoRenewEnabled : .autoRenewDisabled,
                        notificationUUID: UUID().uuidString,
                        data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: "com.screentimerewards", signedRenewalInfo: pki.sign(renewal)),
                        version: "2.0", signedDate: renewal.signedDate)
                    notifications.append(pki.sign(payload))
                }
            }
            var acknowledged = 0
            for signed in notifications {
                guard let status = try? await Self.post(port: port, path: "/v1/app-store/notifications", key: nil,
                                                        body: AppStoreNotificationRequest(signedPayload: signed)) else { break }
                if status == 200 { acknowledged += 1 }
                if acknowledged == 30 { server.signal(SIGKILL) }
            }
            server.signal(SIGKILL)
            #expect(await server.exit() == .init(status: SIGKILL, signalled: true))
            #expect(acknowledged >= 30 && acknowledged < notifications.count)
            let beforeRestart = receiver.accepted.count

            // Restarted, the rest delivered; everything settles.
            let again = try Self.startServer(folder: folder, rootFile: rootFile, port: port, extra: webhookFlags)
            defer { again.signal(SIGKILL) }
            try await Self.waitForHealth(port: port, again)
            for signed in notifications.suffix(from: acknowledged) {
                #expect(try await Self.post(port: port, path: "/v1/app-store/notifications", key: nil, body: AppStoreNotificationRequest(signedPayload: signed)) == 200)
            }
            // An instance killed in the middle of a pass holds its lease until it runs out: 2 s for
            // publishing (--webhook-lease), 60 s for sending.
            var settled = false
            for _ in 0..<450 where !settled {
                try await Task.sleep(for: .milliseconds(200))
                let status = try await Self.get(port: port, path: "/v1/webhooks/status", key: "sk_durability_test_0001", as: WebhookStatusResponse.self)
                settled = status.pending == 0 && status.unpublishedEvents == 0 && status.failed == 0
            }
            #expect(settled)
            let deliveries = try await Self.get(port: port, path: "/v1/webhooks/deliveries?limit=500", key: "sk_durability_test_0001", as: [WebhookDeliveryInfo].self)
            await again.stop()

            let received = receiver.accepted
            #expect(received.count >= beforeRestart)
            var bodies: [String: String] = [:]
            for request in received {
                let id = request.headers["entitle-event-id"] ?? ""
                if let earlier = bodies[id] { #expect(earlier == request.body, "a repeat of \(id) carries the same body") }
                bodies[id] = request.body
            }
            #expect(Set(bodies.keys) == Set(deliveries.map(\.eventID)), "every delivery written arrived")
            let events = try received.map { try WireJSON.decoder.decode(WebhookEvent.self, from: Data($0.body.utf8)) }
            for user in 0..<20 {
                let types = events.filter { $0.appUserID == "user-\(user)" }.map(\.type.rawValue)
                #expect(types.filter { $0 == "auto_renew_disabled" }.count >= 2 && types.filter { $0 == "auto_renew_enabled" }.count >= 1, "user-\(user): \(types)")
                #expect(types.first == "initial_purchase")
            }
        }
    }

    static func get<T: Decodable>(port: Int, path: String, key: String, as type: T.Type) async throws -> T {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
        let (data, _) = try await TestHTTP.answer(for: request)
        return try WireJSON.decoder.decode(T.self, from: data)
    }

    actor Acknowledged {
        private(set) var all = Set<String>()
        var count: Int { all.count }
        func add(_ uuid: String) { all.insert(uuid) }
    }

    /// A fresh folder for a server, and a PKI whose root it trusts (written as DER in the folder).
    static func setUp() throws -> (folder: URL, pki: TestPKI, rootFile: URL) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let pki = try TestPKI()
        let rootFile = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(pki.root)).write(to: rootFile)
        return (folder, pki, rootFile)
    }

    static func startServer(folder: URL, rootFile: URL, port: Int, extra: [String] = []) throws -> ChildProcess {
        try CommandRunner.entitle.start([
            "serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path,
            "--environment", "sandbox", "--app-apple-id", "1234", "--root-certificate", rootFile.path, "--secret-key", "sk_durability_test_0001",
        ] + extra, in: folder)
    }

    struct ServerDidNotStart: Error {}

    static func waitForHealth(port: Int, _ server: ChildProcess) async throws {
        for _ in 0..<300 where server.isRunning {
            if (try? await TestHTTP.answer(from: URL(string: "http://127.0.0.1:\(port)/health")!)) != nil { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ServerDidNotStart()
    }

    static func post<Body: Encodable>(port: Int, path: String, key: String?, body: Body) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONEncoder().encode(body)
        let (_, response) = try await TestHTTP.answer(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
