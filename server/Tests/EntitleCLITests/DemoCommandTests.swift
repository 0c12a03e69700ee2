import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

@Suite("DemoCommand")
struct DemoCommandTests {
    @Test("entitle demo --app all plays the four seed apps into one server; each app's API agrees with its store, each app's data its own")
    func allApps() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-demo-all-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let result = try await CommandRunner.entitle.run([
            "demo", "--app", "all", "--subscribers", "15", "--months", "4", "--seed", "5", "--port", "\(port)", "--data", folder.path, "--exit",
        ])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let apps = ["screentimerewards", "epilogue", "pantrypal", "magicalstories"].map { "com.entitle.demo.\($0)" }
        for app in apps { #expect(result.standardOutput.contains("== \(app)")) }
        #expect(result.standardOutput.components(separatedBy: "the API agrees with the store on all").count == 5)
        // Each app's KPIs, policies and a customer's reminders, as read from the API.
        #expect(result.standardOutput.components(separatedBy: "(GET /v1/analytics/overview): MRR").count == 5)
        #expect(result.standardOutput.contains("policies     billing retry keeps access"), "Epilogue keeps Plus during billing retry")
        #expect(result.standardOutput.contains("app-managed trial P30D + P7D of warning days, also after a subscription ends"))
        #expect(result.standardOutput.contains("  reminders    "))

        let root = try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle.sqlite").path)
        #expect(try await root.appIDs() == apps.sorted().map { BundleID($0) })
        for app in apps {
            let store = root.forApp(BundleID(app))
            #expect(try await store.subscriberIDs().count > 0, "\(app)")
            #expect(try await store.rebuildProjections() > 0)
        }
        await root.close()
    }

    @Test("entitle demo plays a population through the server, and the subscriber API agrees with the store on every purchase")
    func demo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let result = try await CommandRunner.entitle.run([
            "demo", "--subscribers", "60", "--months", "6", "--seed", "3", "--shuffle", "--port", "\(port)", "--data", folder.path, "--exit",
        ])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let output = result.standardOutput
        #expect(output.contains("the API agrees with the store on all"))
        #expect(output.contains("app-managed trials started 60"))
        #expect(!output.contains("duplicates 0,"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("local-store/root.pem").path))

        // The ledger it left: every projection equals the fold of its events.
        let root = try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle.sqlite").path)
        #expect(try await root.appIDs() == ["com.entitle.demo.screentimerewards"])
        let store = root.forApp("com.entitle.demo.screentimerewards")
        let subscribers = try await store.subscriberIDs()
        #expect(subscribers.count >= 60)
        for id in subscribers {
            let folded = SubscriberFacts.fold(appUserID: id, events: try await store.events(appUserID: id))
            #expect(try await store.projection(appUserID: id) == folded)
        }
        await store.close()
    }

    @Test("entitle demo runs from any folder: the example apps ship with the binary", arguments: ["ScreenTimeRewards", "Epilogue"])
    func anyFolder(app: String) async throws {
        let elsewhere = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-elsewhere-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: elsewhere) }
        let port = TestPorts.random()
        let result = try await CommandRunner.entitle.run(
            ["demo", "--app", app, "--subscribers", "5", "--months", "2", "--port", "\(port)", "--data", elsewhere.appendingPathComponent("data").path, "--exit"],
            in: elsewhere)
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        #expect(result.standardOutput.contains("Entitle demo: \(app),"))
        #expect(result.standardOutput.contains("the API agrees with the store"))
    }

    @Test("a catalog with problems is a failure (exit 1) with every problem, not a usage error")
    func brokenCatalog() async throws {
        let result = try await CommandRunner.entitle.run(["demo", "--app", "Tests/Fixtures/Catalogs/Broken", "--exit", "--port", "1"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("has problems"))
        #expect(result.standardError.contains("catalog.unknownProduct"))
        #expect(!result.standardError.contains("Usage:"))
    }

    @Test("a ledger that can't be opened is a failure (exit 1) with the storage error, not a crash: the demo's HTTP client is shut down on every path")
    func unopenableLedger() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-demo-unopenable-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        // The database's path is a folder: SQLite can't open it once everything before the server is set up.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("entitle.sqlite"), withIntermediateDirectories: true)
        let result = try await CommandRunner.entitle.run(["demo", "--subscribers", "5", "--data", folder.path, "--exit", "--port", "1"])
        #expect(result.status == 1, "\(result.standardError)")
        #expect(result.standardError.contains("storage.unavailable"), "\(result.standardError)")
        #expect(!result.standardError.contains("Fatal error"), "\(result.standardError)")
    }

    @Test("bad options are usage errors (exit 64)", arguments: [["demo", "--subscribers", "0"], ["demo", "--months", "99"], ["demo", "--app", "NoSuchApp"]])
    func usage(arguments: [String]) async throws {
        let result = try await CommandRunner.entitle.run(arguments + ["--exit", "--port", "1"])
        #expect(result.status == 64, "\(result.standardError)")
    }

    @Test("an ephemeral port (0) is a usage error: the local App Store and the simulated apps are told the port before the server listens")
    func ephemeralPort() async throws {
        let result = try await CommandRunner.entitle.run(["demo", "--exit", "--port", "0"])
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("--port is 1 to 65535"))
    }
}
