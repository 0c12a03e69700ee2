import EntitleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("entitle keys")
struct KeysCommandTests {
    @Test("create prints the key alone on its last line; list shows it (never the key); revoke ends it; a served app honours it")
    func lifecycle() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-keys-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = "sqlite:\(folder.appendingPathComponent("entitle.sqlite").path)"
        let created = try await CommandRunner.entitle.run(
            ["keys", "create", "--database", database, "--app", "com.epilogue.app", "--kind", "app", "--name", "iOS app"])
        #expect(created.status == 0, "\(created.standardError)")
        let key = try #require(created.standardOutput.split(separator: "\n").last.map(String.init))
        #expect(key.hasPrefix("ak_") && key.count > 40)

        let listed = try await CommandRunner.entitle.run(["keys", "list", "--database", database])
        #expect(listed.status == 0)
        #expect(listed.standardOutput.contains("com.epilogue.app  app  \(key.prefix(10))…  iOS app"))
        #expect(!listed.standardOutput.contains(key))
        let id = try #require(listed.standardOutput.split(separator: " ").first.map(String.init))

        // The server honours it for its app, with no header.
        let port = TestPorts.random()
        let process = try CommandRunner.entitle.start(
            ["serve", "--port", "\(port)", "--database", database, "--catalog", Fixtures.examples.appendingPathComponent("Epilogue").path], in: folder)
        defer { process.signal(SIGKILL) }
        var status = 0
        for _ in 0..<300 where status == 0 {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/subscribers/reader")!)
            request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization")
            if let (_, response) = try? await TestHTTP.answer(for: request) { status = (response as? HTTPURLResponse)?.statusCode ?? 0 }
            if status == 0 { try await Task.sleep(for: .milliseconds(100)) }
        }
        #expect(status == 200)
        await process.stop()

        let revoked = try await CommandRunner.entitle.run(["keys", "revoke", "--database", database, id])
        #expect(revoked.status == 0)
        #expect(try await CommandRunner.entitle.run(["keys", "list", "--database", database, "--app", "com.epilogue.app"]).standardOutput.contains("revoked"))
        #expect(try await CommandRunner.entitle.run(["keys", "revoke", "--database", database, "key_nope"]).status == 1)
        #expect(try await CommandRunner.entitle.run(["keys", "create", "--database", database, "--app", "x", "--kind", "admin"]).status == 64)
    }
}
