import AppStoreModels
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// The restore drill (docs/operations.md, "Backups"): a backup taken while the server takes purchases,
/// restored, checked with `entitle rebuild`, and served.
@Suite("entitle backup")
struct BackupCommandTests {
    @Test("backed up under load, restored and served: the copy is the ledger at one instant, its projections equal a rebuild")
    func drill() async throws {
        let (folder, pki, rootFile) = try DurabilityTests.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let live = folder.appendingPathComponent("entitle-data/entitle.sqlite").path
        let port = TestPorts.random()
        let server = try DurabilityTests.startServer(folder: folder, rootFile: rootFile, port: port)
        defer { server.signal(SIGKILL) }
        try await DurabilityTests.waitForHealth(port: port, server)

        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let purchases = 120
        let backup = folder.appendingPathComponent("backup.sqlite").path
        // Purchases keep arriving while the backup is taken.
        let load = Task {
            var stored = 0
            for index in 0..<purchases {
                let signed = pki.sign(apple.subscription(
                    "com.screentimerewards.family.monthly", original: "\(9_000 + index)", purchase: Date().addingTimeInterval(-60),
                    expires: Date().addingTimeInterval(30 * 86_400)))
                let status = try await DurabilityTests.post(
                    port: port, path: "/v1/subscribers/drill-\(index)/transactions", key: "sk_durability_test_0001",
                    body: ["signedTransaction": signed])
                if status == 200 { stored += 1 }
            }
            return stored
        }
        try await Task.sleep(for: .milliseconds(400))
        let copied = try await CommandRunner.entitle.run(["backup", "--database", "sqlite:\(live)", "--output", backup])
        #expect(copied.status == 0, "\(copied.standardError)")
        #expect(copied.standardOutput.contains("integrity check ok"), "\(copied.standardOutput)")
        let stored = try await load.value
        #expect(stored == purchases)
        server.signal(SIGTERM)
        _ = await server.exit(within: .seconds(10))

        // The copy: an instant of the ledger, whole — its projections equal a rebuild from its events.
        let rebuilt = try await CommandRunner.entitle.run(["rebuild", "--database", "sqlite:\(backup)"])
        #expect(rebuilt.status == 0, "\(rebuilt.standardOutput) \(rebuilt.standardError)")
        #expect(rebuilt.standardOutput.contains("all equal the live ones"))
        let copy = try await SQLiteLedgerStore.open(path: backup)
        let copiedEvents = try await copy.forApp("com.screentimerewards").eventCount()
        await copy.close()
        let original = try await SQLiteLedgerStore.open(path: live)
        let liveEvents = try await original.forApp("com.screentimerewards").eventCount()
        await original.close()
        #expect(copiedEvents > 0 && copiedEvents <= liveEvents, "copied \(copiedEvents) of \(liveEvents)")

        // Restored in place of a lost database: the server serves what the copy holds.
        let restored = folder.appendingPathComponent("restored")
        try FileManager.default.createDirectory(at: restored.appendingPathComponent("entitle-data"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(atPath: backup, toPath: restored.appendingPathComponent("entitle-data/entitle.sqlite").path)
        let restoredPort = TestPorts.random()
        let second = try DurabilityTests.startServer(folder: restored, rootFile: rootFile, port: restoredPort)
        defer { second.signal(SIGKILL) }
        try await DurabilityTests.waitForHealth(port: restoredPort, second)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(restoredPort)/v1/subscribers/drill-0")!)
        request.setValue("Bearer sk_durability_test_0001", forHTTPHeaderField: "Authorization")
        let (body, _) = try await TestHTTP.answer(for: request)
        #expect(String(decoding: body, as: UTF8.self).contains("\"isActive\":true"), "drill-0, bought before the backup, is served")
        second.signal(SIGTERM)
        _ = await second.exit(within: .seconds(10))

        // A backup never overwrites.
        let again = try await CommandRunner.entitle.run(["backup", "--database", "sqlite:\(live)", "--output", backup])
        #expect(again.status == 64)
    }
}
