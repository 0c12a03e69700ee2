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
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pki = try TestPKI()
        let rootFile = folder.appendingPathComponent("root.der")
        try Data(TestPKI.der(pki.root)).write(to: rootFile)
        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let port = TestPorts.random()
        let server = try Self.startServer(folder: folder, rootFile: rootFile, port: port)
        defer { if server.isRunning { kill(server.processIdentifier, SIGKILL) } }
        try await Self.waitForHealth(port: port)

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
                        if await acknowledged.count >= killAfter, server.isRunning {
                            kill(server.processIdentifier, SIGKILL)
                        }
                    }
                }
            }
        }
        server.waitUntilExit()
        #expect(server.terminationReason == .uncaughtSignal)
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
        var live: [String: SubscriberFacts] = [:]
        for id in try await store.subscriberIDs() { live[id] = try await store.projection(appUserID: id) }
        #expect(live.count == 10)
        _ = try await store.rebuildProjections()
        for (id, facts) in live {
            #expect(try await store.projection(appUserID: id) == facts, "\(id)")
        }
        await store.close()
    }

    actor Acknowledged {
        private(set) var all = Set<String>()
        var count: Int { all.count }
        func add(_ uuid: String) { all.insert(uuid) }
    }

    static func startServer(folder: URL, rootFile: URL, port: Int) throws -> Process {
        let process = Process()
        process.executableURL = CommandRunner.entitle.executable
        process.arguments = [
            "serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path,
            "--environment", "sandbox", "--app-apple-id", "1234", "--root-certificate", rootFile.path, "--secret-key", "sk_durability_test_0001",
        ]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    static func waitForHealth(port: Int) async throws {
        for _ in 0..<100 {
            if (try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!)) != nil { return }
            try await Task.sleep(for: .milliseconds(100))
        }
        Issue.record("the server did not start")
    }

    static func post<Body: Encodable>(port: Int, path: String, key: String?, body: Body) async throws -> Int {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        request.httpBody = try JSONEncoder().encode(body)
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }
}
