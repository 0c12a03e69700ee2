import EntitleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

@Suite("ServeCommand")
struct ServeCommandTests {
    /// Starts `entitle serve` in a fresh folder on a free port, calls it over HTTP, stops it with
    /// SIGTERM, and checks it shut down cleanly.
    @Test("entitle serve starts on a fresh folder, answers, and shuts down gracefully on SIGTERM")
    func serve() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = 20_000 + Int.random(in: 0..<20_000)
        let process = Process()
        process.executableURL = CommandRunner.entitle.executable
        process.arguments = ["serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path,
                             "--secret-key", "sk_serve_test_key_0001"]
        process.currentDirectoryURL = folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        var health: String?
        for _ in 0..<100 where health == nil {
            try await Task.sleep(for: .milliseconds(100))
            if let (data, _) = try? await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/health")!) {
                health = String(decoding: data, as: UTF8.self)
            }
        }
        #expect(health == #"{"status":"ok"}"#)
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/subscribers/parent-1/trial")!)
        request.httpMethod = "POST"
        request.setValue("Bearer sk_serve_test_key_0001", forHTTPHeaderField: "Authorization")
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        kill(process.processIdentifier, SIGTERM)
        for _ in 0..<100 where process.isRunning { try await Task.sleep(for: .milliseconds(50)) }
        #expect(!process.isRunning)
        #expect(process.terminationStatus == 0)
        let log = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        #expect(log.contains("Entitle listening on http://127.0.0.1:\(port)"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("entitle-data/entitle.sqlite").path))
    }
}
