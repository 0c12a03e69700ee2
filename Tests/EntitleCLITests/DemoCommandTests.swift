import EntitleCore
import EntitleStorage
import EntitleTestSupport
import Foundation
import Testing

@Suite("DemoCommand")
struct DemoCommandTests {
    @Test("entitle demo plays a population through the server, and the subscriber API agrees with the store on every purchase")
    func demo() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-demo-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let port = 20_000 + Int.random(in: 0..<20_000)
        let result = try CommandRunner.entitle.run([
            "demo", "--subscribers", "150", "--months", "6", "--seed", "3", "--shuffle", "--port", "\(port)", "--data", folder.path, "--exit",
        ])
        #expect(result.status == 0, "\(result.standardOutput)\n\(result.standardError)")
        let output = result.standardOutput
        #expect(output.contains("the API agrees with the store on all"))
        #expect(output.contains("app-managed trials started 150"))
        #expect(!output.contains("duplicates 0,"))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("local-store/root.pem").path))

        // The ledger it left: every projection equals the fold of its events.
        let store = try await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle.sqlite").path)
        let subscribers = try await store.subscriberIDs()
        #expect(subscribers.count >= 150)
        for id in subscribers {
            let folded = SubscriberFacts.fold(appUserID: id, events: try await store.events(appUserID: id))
            #expect(try await store.projection(appUserID: id) == folded)
        }
        await store.close()
    }

    @Test("bad options are usage errors (exit 64)", arguments: [["demo", "--subscribers", "0"], ["demo", "--months", "99"], ["demo", "--app", "NoSuchApp"]])
    func usage(arguments: [String]) throws {
        let result = try CommandRunner.entitle.run(arguments + ["--exit", "--port", "1"])
        #expect(result.status == 64, "\(result.standardError)")
    }
}
