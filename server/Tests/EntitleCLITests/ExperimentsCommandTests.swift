import EntitleTestSupport
import Foundation
import Testing

@Suite("entitle experiments")
struct ExperimentsCommandTests {
    @Test("create, start, pause, roll out and read an experiment in a server's database; what the catalog doesn't declare or the state doesn't allow is refused")
    func lifecycle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-experiments-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite:\(folder.appendingPathComponent("entitle.sqlite").path)"
        let catalog = Fixtures.root.appendingPathComponent("Examples/PantryPal").path
        // A server's database (adding a webhook endpoint creates it).
        _ = try await CommandRunner.entitle.run(["webhooks", "add", "--database", database, "--app", "com.pantrypal.app", "--url", "https://example.com/hooks"])
        let common = ["--database", database, "--catalog", catalog, "--app", "com.pantrypal.app"]
        func run(_ arguments: [String]) async throws -> (status: Int32, standardOutput: String, standardError: String) {
            let result = try await CommandRunner.entitle.run(["experiments"] + arguments)
            return (result.status, result.standardOutput, result.standardError)
        }

        let created = try await run(["create"] + common + ["--id", "order", "--variant", "control=default", "--variant", "b=monthly-first:3", "--audience", "new"])
        #expect(created.status == 0, "\(created.standardError)")
        #expect(created.standardOutput.contains("created order (draft): control=default, b=monthly-first"))
        let unknown = try await run(["create"] + common + ["--id", "other", "--variant", "control=default", "--variant", "b=summer"])
        #expect(unknown.status != 0 && unknown.standardError.contains("summer is not an offering"))
        #expect(try await run(["create"] + common + ["--id", "bad", "--variant", "control"]).status == 64)
        #expect(try await run(["create"] + common + ["--id", "bad", "--variant", "a=default", "--variant", "b=default", "--audience", "vip"]).status == 64)

        #expect(try await run(["set", "start", "order"] + common).standardOutput.contains("order is running"))
        #expect(try await run(["set", "pause", "order"] + common).standardOutput.contains("order is paused"))
        let listed = try await run(["list"] + common)
        #expect(listed.standardOutput.contains("order  paused  control=default×1, b=monthly-first×3"))
        let rolled = try await run(["rollout", "order", "--variant", "b"] + common)
        #expect(rolled.status == 0 && rolled.standardOutput.contains("order is rolled out: b (offering monthly-first)"))
        let again = try await run(["set", "start", "order"] + common)
        #expect(again.status != 0 && again.standardError.contains("can't become running"))
        let results = try await run(["results", "order"] + common)
        #expect(results.status == 0 && results.standardOutput.contains("order (rolled_out)") && results.standardOutput.contains("  control: 0 exposed"))
    }
}
