import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

/// `entitle serve` ends on SIGTERM whatever its ledger holds: its background work checks for
/// cancellation inside every long step.
@Suite("Shutdown")
struct ShutdownTests {
    static let bundleID = "com.screentimerewards"
    static let events = 1_250
    static let subscribers = 4

    @Test("SIGTERM ends a server whose webhook worker is working through subscribers of 1,250 renewals each")
    func sigtermDuringLongWebhookStep() async throws {
        let (folder, _, rootFile) = try DurabilityTests.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let data = folder.appendingPathComponent("entitle-data")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        let shared = try await SQLiteLedgerStore.open(path: data.appendingPathComponent("entitle.sqlite").path)
        let store = shared.forApp(Self.bundleID)
        let apple = AppleFacts(bundleID: Self.bundleID)
        for subscriber in 0..<Self.subscribers {
            for period in 0..<Self.events {
                let start = ReferenceTime.day(Double(period) * 30)
                let renewal = apple.subscription(
                    "com.screentimerewards.family.monthly", original: "L\(subscriber)", id: "L\(subscriber)-\(period)", purchase: start,
                    expires: start.addingTimeInterval(30 * 86_400), reason: period == 0 ? .purchase : .renewal)
                _ = try await store.append(LedgerEvents.appTransaction(subscriber * Self.events + period, appUserID: "long-history-\(subscriber)", renewal))
            }
        }
        // An endpoint that never answers (nothing listens on port 9): the worker's time goes to the step.
        try await store.webhookStore().addEndpoint(WebhookEndpoint(
            id: "we_shutdown", app: Self.bundleID, url: "http://127.0.0.1:9/hooks", eventTypes: [], secrets: ["whsec_test_secret"],
            createdAt: ReferenceTime.day(-1)))
        await shared.close()

        let port = TestPorts.random()
        let server = try DurabilityTests.startServer(folder: folder, rootFile: rootFile, port: port)
        defer { server.signal(SIGKILL) }
        try await DurabilityTests.waitForHealth(port: port, server)
        // The webhook worker starts at once; give it time to be inside the subscriber's history.
        try await Task.sleep(for: .seconds(3))
        server.signal(SIGTERM)
        let termination = await server.exit(within: .seconds(20))
        #expect(termination == ChildProcess.Termination(status: 0, signalled: false), "still running 20 s after SIGTERM")
    }
}
