import EntitleTestSupport
import Foundation
import Testing

/// EntitleKit end to end on Linux: the sample app against `entitle demo`, buying from its local App Store.
@Suite("sample-app")
struct SampleAppTests {
    @Test("the line entitle demo prints works: status, purchase, offline status and access from the signed cache, restore on a second device, offline use queued")
    func againstDemo() async throws {
        try await Self.withDemo(["--subscribers", "20"]) { demo in
            #expect(demo.line.last == "status")
            #expect(try await demo.run(["--user", "kid-1", "status"])["source"] as? String == "server")
            let shown = try await demo.run(["--user", "kid-1", "products", "com.screentimerewards.family.monthly"])["products"] as? [[String: String]]
            #expect(shown?.first?["displayPrice"] == "USD 12.99")
            let bought = try await demo.run(["--user", "kid-1", "purchase", "com.screentimerewards.family.monthly"])
            #expect(bought["outcome"] as? String == "purchase.success")
            let offline = try await demo.run(["--user", "kid-1", "--offline", "status"])
            #expect(offline["source"] as? String == "cache")
            #expect(offline["activeEntitlements"] as? [String] == ["family"])
            #expect(try await demo.run(["--user", "kid-1", "--offline", "access", "challenges.create"])["outcome"] as? String == "allowed")
            let restored = try await demo.run(["--user", "kid-1", "--cache", demo.folder.appendingPathComponent("second-device").path, "restore"])
            #expect(restored["activeEntitlements"] as? [String] == ["family"])
            #expect(try await demo.run(["--user", "kid-1", "--offline", "use", "conversations"])["queued"] as? Int == 1)
            let refused = try await CommandRunner.sampleApp.run(demo.base + ["--user", "kid-9", "--offline", "status"], in: demo.folder)
            #expect(refused.status == 1 && refused.standardError.hasPrefix("error: customerInfo.unavailable: "))
        }
    }

    @Test("seed 003: a lifetime purchase in Magical Stories restores on a second device; offerings work offline once seen")
    func lifetimeRestore() async throws {
        try await Self.withDemo(["--app", "MagicalStories", "--subscribers", "10"]) { demo in
            let phone = demo.folder.appendingPathComponent("phone").path
            let offerings = try await demo.run(["--user", "reader", "--cache", phone, "offerings"])
            #expect((offerings["products"] as? [[String: Any]])?.contains { $0["productID"] as? String == "com.magicalstories.lifetime" } == true)
            #expect(try await demo.run(["--user", "reader", "--cache", phone, "purchase", "com.magicalstories.lifetime"])["outcome"] as? String == "purchase.success")
            let tablet = demo.folder.appendingPathComponent("tablet").path
            #expect(try await demo.run(["--user", "reader", "--cache", tablet, "restore"])["activeEntitlements"] as? [String] == ["premium"])
            #expect(try await demo.run(["--user", "reader", "--cache", phone, "--offline", "offerings"])["currentOfferingID"] as? String == "default")
        }
    }

    /// A running `entitle demo`: its folder and the sample-app line it printed.
    struct Demo {
        let folder: URL
        /// The line's words.
        let line: [String]
        /// The sample app's arguments from that line, without its command (`status`).
        let base: [String]

        /// Runs the sample app as the line does, with `arguments` for its command; its JSON answer.
        func run(_ arguments: [String]) async throws -> [String: Any] {
            let result = try await CommandRunner.sampleApp.run(base + arguments, in: folder)
            #expect(result.status == 0, "\(arguments): \(result.standardError)")
            return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        }
    }

    /// Runs `entitle demo` with `arguments` in a new folder and `body` against it, then stops the demo
    /// and, once it has exited, removes the folder.
    static func withDemo(_ arguments: [String], _ body: (Demo) async throws -> Void) async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let log = folder.appendingPathComponent("demo.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let process = try CommandRunner.entitle.start(
            ["demo"] + arguments + ["--months", "2", "--port", "\(port)", "--data", folder.appendingPathComponent("data").path], standardOutput: .file(log))
        do {
            var line: String?
            for _ in 0..<600 where line == nil {
                line = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first { $0.contains("swift run sample-app") }.map(String.init)
                if line == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let words = try #require(line).split(separator: " ").map(String.init)
            let base = Array(words[(try #require(words.firstIndex(of: "sample-app")) + 1)...].dropLast())
            try await body(Demo(folder: folder, line: words, base: base))
        } catch {
            _ = await process.stop()
            throw error
        }
        // The demo has exited before its folder is removed (it writes there until it does).
        _ = await process.stop()
    }
}
