import EntitleTestSupport
import Foundation
import Testing

/// EntitleKit end to end on Linux: the sample app against `entitle demo`, buying from its local App Store.
@Suite("sample-app")
struct SampleAppTests {
    @Test("the line entitle demo prints works: status, purchase, offline status and access from the signed cache, restore on a second device, offline use queued")
    func againstDemo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let log = folder.appendingPathComponent("demo.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let demo = try CommandRunner.entitle.start(["demo", "--subscribers", "20", "--months", "2", "--port", "\(port)", "--data", folder.appendingPathComponent("data").path], standardOutput: .file(log))
        do {
            var line: String?
            for _ in 0..<600 where line == nil {
                line = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first { $0.contains("swift run sample-app") }.map(String.init)
                if line == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let words = try #require(line).split(separator: " ").map(String.init)
            let start = try #require(words.firstIndex(of: "sample-app"))
            let base = Array(words[(start + 1)...].dropLast())  // without its `status`
            #expect(words.last == "status")

            func run(_ arguments: [String]) async throws -> [String: Any] {
                let result = try await CommandRunner.sampleApp.run(base + arguments, in: folder)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            }
            #expect(try await run(["--user", "kid-1", "status"])["source"] as? String == "server")
            let shown = try await run(["--user", "kid-1", "products", "com.screentimerewards.family.monthly"])["products"] as? [[String: String]]
            #expect(shown?.first?["displayPrice"] == "USD 12.99")
            let bought = try await run(["--user", "kid-1", "purchase", "com.screentimerewards.family.monthly"])
            #expect(bought["outcome"] as? String == "purchase.success")
            let offline = try await run(["--user", "kid-1", "--offline", "status"])
            #expect(offline["source"] as? String == "cache")
            #expect(offline["activeEntitlements"] as? [String] == ["family"])
            #expect(try await run(["--user", "kid-1", "--offline", "access", "challenges.create"])["outcome"] as? String == "allowed")
            let restored = try await run(["--user", "kid-1", "--cache", folder.appendingPathComponent("second-device").path, "restore"])
            #expect(restored["activeEntitlements"] as? [String] == ["family"])
            #expect(try await run(["--user", "kid-1", "--offline", "use", "conversations"])["queued"] as? Int == 1)
            let refused = try await CommandRunner.sampleApp.run(base + ["--user", "kid-9", "--offline", "status"], in: folder)
            #expect(refused.status == 1 && refused.standardError.hasPrefix("error: customerInfo.unavailable: "))
        } catch {
            _ = await demo.stop()
            throw error
        }
        // The demo has exited before its folder is removed (it writes there until it does).
        _ = await demo.stop()
    }

    @Test("seed 003: a lifetime purchase in Magical Stories restores on a second device; offerings work offline once seen")
    func lifetimeRestore() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-sample-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = TestPorts.random()
        let log = folder.appendingPathComponent("demo.log")
        _ = FileManager.default.createFile(atPath: log.path, contents: nil)
        let demo = try CommandRunner.entitle.start(["demo", "--app", "MagicalStories", "--subscribers", "10", "--months", "2", "--port", "\(port)", "--data", folder.appendingPathComponent("data").path], standardOutput: .file(log))
        do {
            var line: String?
            for _ in 0..<600 where line == nil {
                line = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first { $0.contains("swift run sample-app") }.map(String.init)
                if line == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            let words = try #require(line).split(separator: " ").map(String.init)
            let base = Array(words[(try #require(words.firstIndex(of: "sample-app")) + 1)...].dropLast())
            func run(_ arguments: [String]) async throws -> [String: Any] {
                let result = try await CommandRunner.sampleApp.run(base + arguments, in: folder)
                #expect(result.status == 0, "\(arguments): \(result.standardError)")
                return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
            }
            let phone = folder.appendingPathComponent("phone").path
            let offerings = try await run(["--user", "reader", "--cache", phone, "offerings"])
            #expect((offerings["products"] as? [[String: Any]])?.contains { $0["productID"] as? String == "com.magicalstories.lifetime" } == true)
            #expect(try await run(["--user", "reader", "--cache", phone, "purchase", "com.magicalstories.lifetime"])["outcome"] as? String == "purchase.success")
            let tablet = folder.appendingPathComponent("tablet").path
            #expect(try await run(["--user", "reader", "--cache", tablet, "restore"])["activeEntitlements"] as? [String] == ["premium"])
            #expect(try await run(["--user", "reader", "--cache", phone, "--offline", "offerings"])["currentOfferingID"] as? String == "default")
        } catch {
            _ = await demo.stop()
            throw error
        }
        // The demo has exited before its folder is removed (it writes there until it does).
        _ = await demo.stop()
    }
}

