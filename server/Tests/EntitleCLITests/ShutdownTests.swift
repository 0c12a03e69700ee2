import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `entitle serve` ends on SIGTERM whatever its ledger holds: its background work checks for
/// cancellation inside every long step.
@Suite("Shutdown")
struct ShutdownTests {
    static let bundleID: BundleID = "com.screentimerewards"
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
        let apple = AppleFacts(bundleID: Self.bundleID.rawValue)
        // Appended a subscriber at a time in one transaction (each projection stored once), as the
        // population loader does: one append per event would store a growing projection 5,000 times.
        for subscriber in 0..<Self.subscribers {
            let history = (0..<Self.events).map { period in
                let start = ReferenceTime.day(Double(period) * 30)
                let renewal = apple.subscription(
                    "com.screentimerewards.family.monthly", original: "L\(subscriber)", id: "L\(subscriber)-\(period)", purchase: start,
                    expires: start.addingTimeInterval(30 * 86_400), reason: period == 0 ? .purchase : .renewal)
                return LedgerEvents.appTransaction(subscriber * Self.events + period, appUserID: "long-history-\(subscriber)", renewal)
            }
            let outcomes = try await store.append(contentsOf: history)
            #expect(outcomes.count == Self.events)
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

    @Test("a crashed server frees its port while the runtime writes the backtrace: a new server binds it and answers")
    func crashFreesPort() async throws {
        let (folder, _, rootFile) = try DurabilityTests.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let crashed = try DurabilityTests.startServer(folder: folder, rootFile: rootFile, port: port)
        // The runtime's backtracer too (the crashed server's child), or it outlives the test.
        defer { crashed.signalWithChildren(SIGKILL) }
        try await DurabilityTests.waitForHealth(port: port, crashed)
        crashed.signal(SIGSEGV)
        // Its own folder: the crashed process may still hold the first one's SQLite file.
        let second = folder.appendingPathComponent("restarted")
        try FileManager.default.createDirectory(at: second, withIntermediateDirectories: true)
        let restartedKey = "sk_restarted_server_0001"
        let restarted = try DurabilityTests.startServer(folder: second, rootFile: rootFile, port: port, extra: ["--secret-key", restartedKey])
        defer { restarted.signal(SIGKILL) }
        // Answered with the restarted server's own key: the crashed one doesn't know it. Before, the
        // backtracer held the port for as long as it ran: the restart could not bind, and exited.
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/open-access")!)
        request.setValue("Bearer \(restartedKey)", forHTTPHeaderField: "Authorization")
        var answered = false
        for _ in 0..<300 where restarted.isRunning && !answered {
            if let (_, response) = try? await TestHTTP.answer(for: request), (response as? HTTPURLResponse)?.statusCode == 200 {
                answered = true
            } else {
                try await Task.sleep(for: .milliseconds(100))
            }
        }
        #expect(answered, "the restarted server never answered on the crashed one's port")
    }
}

extension ShutdownTests {
    /// Where the demo is when Ctrl-C arrives: starting up, in the middle of its simulation, or serving after it.
    enum DemoMoment: String, CaseIterable, Sendable {
        case starting
        case simulating
        case serving
    }

    @Test("Ctrl-C (SIGINT) ends entitle demo within 10 s whatever it is doing", arguments: DemoMoment.allCases)
    func demoInterrupted(at moment: DemoMoment) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-demo-stop-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let log = folder.appendingPathComponent("demo.log")
        // Enough to be simulating long after its first progress line (500 events), or few to be serving soon.
        let (subscribers, months) = moment == .serving ? ("5", "2") : ("400", "12")
        let demo = try CommandRunner.entitle.start(
            ["demo", "--port", "\(TestPorts.random())", "--subscribers", subscribers, "--months", months, "--data", folder.appendingPathComponent("data").path],
            standardOutput: .file(log), standardError: .file(folder.appendingPathComponent("demo.err")))
        defer { demo.signal(SIGKILL) }
        func logged(_ text: String) -> Bool { ((try? String(contentsOf: log, encoding: .utf8)) ?? "").contains(text) }
        switch moment {
        case .starting:
            try await Task.sleep(for: .milliseconds(300))
        case .simulating:
            // The key's line is the last before the simulation, which then runs for seconds (500 events
            // before its first progress line): a moment later it is simulating.
            for _ in 0..<600 where !logged(", key ID ") { try await Task.sleep(for: .milliseconds(100)) }
            #expect(logged(", key ID "), "the demo never started its simulation")
            try await Task.sleep(for: .milliseconds(500))
            #expect(!logged("purchase chains"), "the simulation had ended (its summary is printed)")
        case .serving:
            for _ in 0..<1_200 where !logged("Ctrl-C stops the server") { try await Task.sleep(for: .milliseconds(100)) }
            #expect(logged("Ctrl-C stops the server"), "the demo never finished its simulation")
        }
        demo.signal(SIGINT)
        let termination = await demo.exit(within: .seconds(10))
        #expect(termination != nil, "still running 10 s after Ctrl-C (\(moment))")
        // Before its signal handlers are installed (the first moments), SIGINT's default action ends it at once.
        if moment != .starting { #expect(termination?.signalled == false, "ended by a signal, not by itself") }
    }
}
