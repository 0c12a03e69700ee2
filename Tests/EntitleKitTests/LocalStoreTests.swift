import EntitleAPI
import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// EntitleKit with the local App Store of a running `entitle demo`, over HTTP only.
@Suite("LocalStore")
struct LocalStoreTests {
    @Test("a refund reaches the app through transaction updates and revokes at once")
    func refundThroughUpdates() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-localstore-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let demo = Process()
        demo.executableURL = CommandRunner.entitle.executable
        demo.arguments = ["demo", "--subscribers", "10", "--months", "2", "--port", "\(port)", "--data", folder.appendingPathComponent("data").path]
        let log = folder.appendingPathComponent("demo.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        demo.standardOutput = try FileHandle(forWritingTo: log)
        demo.standardError = FileHandle.nullDevice
        try demo.run()
        defer { if demo.isRunning { demo.terminate() } }
        var line: String?
        for _ in 0..<600 where line == nil {
            line = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first { $0.contains("swift run sample-app") }.map(String.init)
            if line == nil { try await Task.sleep(for: .milliseconds(100)) }
        }
        let words = try #require(line).split(separator: " ").map(String.init)
        func value(_ flag: String) throws -> String { words[try #require(words.firstIndex(of: flag)) + 1] }
        let server = try #require(URL(string: try value("--server")))
        let bundleID = try value("--bundle-id")

        let store = LocalStore(storeURL: server, bundleID: bundleID, account: "family-account", pollInterval: .milliseconds(100))
        let entitle = try Entitle(
            configuration: EntitleConfiguration(
                serverURL: server, apiKey: try value("--app-key"), serverPublicKey: try value("--server-public-key"),
                cacheFolder: folder.appendingPathComponent("cache"), store: store),
            appUserID: "kid-r")
        guard case .success(let bought) = await entitle.purchase("com.screentimerewards.family.monthly") else {
            Issue.record("the purchase must succeed")
            return
        }
        #expect(bought.isActive("family", at: Date()))
        let original = try #require(bought.subscriber.subscriptions.first?.originalTransactionID)
        let updates = await entitle.customerInfoUpdates()
        await entitle.startTransactionUpdates()

        var request = URLRequest(url: server.appendingPathComponent("local-store/v1/\(bundleID)/refunds"))
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = try WireJSON.encoder.encode(LocalRefundRequest(account: "family-account", originalTransactionID: original))
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)

        let revoked = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await info in updates where !info.isActive("family", at: Date()) { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(revoked, "the refund arrived through transaction updates")
        await entitle.stopTransactionUpdates()
    }
}
