import EntitleAnalytics
import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

@Suite("entitle analytics")
struct AnalyticsCommandTests {
    let entitle = CommandRunner.entitle

    @Test("recompute refreshes, recomputes and agrees with the incremental aggregates; a changed catalog shows as a difference")
    func recompute() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-analytics-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appendingPathComponent("entitle.sqlite").path
        let store = try await SQLiteLedgerStore.open(path: path).forApp("com.screentimerewards")
        for event in AnalyticsLedger.events { _ = try await store.append(event) }
        await store.close()

        let catalog = Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path
        let first = try await entitle.run(["analytics", "recompute", "--database", "sqlite:\(path)", "--catalog", catalog])
        #expect(first.status == 0, "\(first.standardError)")
        #expect(first.standardOutput.contains("refreshed 5 subscribers"))
        #expect(first.standardOutput.contains("from 5 subscribers; they equal the incremental aggregates"))

        let again = try await entitle.run(["analytics", "recompute", "--database", "sqlite:\(path)", "--catalog", catalog])
        #expect(again.status == 0)
        #expect(again.standardOutput.contains("refreshed 0 subscribers"))

        // A recompute interrupted after its first batch is finished before the comparison.
        let reopened = try await SQLiteLedgerStore.open(path: path).forApp("com.screentimerewards")
        let contributor = AnalyticsContributor(catalog: Fixtures.exampleCatalog("ScreenTimeRewards"))
        try await reopened.analyticsStore().startRecompute()
        _ = try await reopened.analyticsStore().recomputeBatch(batchSize: 2, cells: { contributor.cells(appUserID: $0, events: $1) })
        await reopened.close()
        let interrupted = try await entitle.run(["analytics", "recompute", "--database", "sqlite:\(path)", "--catalog", catalog])
        #expect(interrupted.status == 0, "\(interrupted.standardOutput)")
        #expect(interrupted.standardOutput.contains("finished the recompute under way (3 subscribers); refreshed 0 subscribers"))
        #expect(interrupted.standardOutput.contains("they equal the incremental aggregates"))

        let otherCatalog = Fixtures.examples.appendingPathComponent("ScreenTimeRewardsTiers").path
        let changed = try await entitle.run(["analytics", "recompute", "--database", "sqlite:\(path)", "--catalog", otherCatalog])
        #expect(changed.status == 1)
        #expect(changed.standardOutput.contains("cells differed from the incremental aggregates"))
    }

    @Test("usage errors exit 64", arguments: [
        ["analytics", "recompute", "--database", "mysql://nowhere"],
        ["analytics", "recompute", "--database", "sqlite:/nonexistent/entitle.sqlite"],
        ["analytics", "recompute", "--database", "sqlite:/tmp/x.sqlite", "--catalog", "/nonexistent"],
    ])
    func usage(arguments: [String]) async throws {
        let result = try await entitle.run(arguments)
        #expect(result.status == 64, "\(result.standardError)")
        #expect(result.standardError.contains("Error:"))
    }
}
