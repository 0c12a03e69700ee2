import EntitleTestSupport
import Foundation
import Testing

@Suite("entitle webhooks")
struct WebhooksCommandTests {
    @Test("add prints the secret alone on its last line; list shows the endpoint (never the secret); replay and remove find it; bad input is a usage error")
    func lifecycle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-webhooks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite:\(folder.appendingPathComponent("entitle.sqlite").path)"
        let added = try await CommandRunner.entitle.run([
            "webhooks", "add", "--database", database, "--app", "com.example.pantrypal", "--url", "https://api.example.com/entitle",
            "--event", "renewal_reminder", "--event", "entitlement_changed", "--description", "household sync",
        ])
        #expect(added.status == 0, "\(added.standardError)")
        let secret = try #require(added.standardOutput.split(separator: "\n").last.map(String.init))
        #expect(secret.hasPrefix("whsec_") && secret.count > 40)
        let id = try #require(added.standardOutput.range(of: #"we_[0-9a-f]{20}"#, options: .regularExpression).map { String(added.standardOutput[$0]) })

        let listed = try await CommandRunner.entitle.run(["webhooks", "list", "--database", database, "--app", "com.example.pantrypal"])
        #expect(listed.status == 0)
        #expect(listed.standardOutput.contains("\(id)  https://api.example.com/entitle  entitlement_changed,renewal_reminder  secrets …\(secret.suffix(4))"))
        #expect(!listed.standardOutput.contains(secret))
        #expect(listed.standardOutput.contains("deliveries: 0 pending, 0 delivered, 0 failed"))
        #expect(try await CommandRunner.entitle.run(["webhooks", "list", "--database", database, "--app", "com.other"]).standardOutput.contains("no endpoints"))

        let replayed = try await CommandRunner.entitle.run(["webhooks", "replay", "--database", database, "--app", "com.example.pantrypal", id])
        #expect(replayed.status == 0 && replayed.standardOutput.contains("0 failed deliveries"))
        #expect(try await CommandRunner.entitle.run(["webhooks", "remove", "--database", database, "--app", "com.other", id]).status == 1)
        #expect(try await CommandRunner.entitle.run(["webhooks", "remove", "--database", database, "--app", "com.example.pantrypal", id]).status == 0)
        #expect(try await CommandRunner.entitle.run(["webhooks", "remove", "--database", database, "--app", "com.example.pantrypal", id]).status == 1)

        for bad in [["--url", "ftp://x/y"], ["--url", "https://x/y", "--event", "purchase"], ["--url", "https://x/y", "--secret", "short"]] {
            let result = try await CommandRunner.entitle.run(["webhooks", "add", "--database", database, "--app", "com.example.pantrypal"] + bad)
            #expect(result.status == 64, "\(bad)")
        }
    }
}
