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
            let status = try await demo.run(["--user", "kid-1", "status"])
            #expect(status["source"] as? String == "server")
            let appleID = try #require(status["storeAccount"] as? String)
            let shown = try await demo.run(["--user", "kid-1", "products", "com.screentimerewards.family.monthly"])["products"] as? [[String: String]]
            #expect(shown?.first?["displayPrice"] == "USD 12.99")
            let bought = try await demo.run(["--user", "kid-1", "purchase", "com.screentimerewards.family.monthly"])
            #expect(bought["outcome"] as? String == "purchase.success")
            let offline = try await demo.run(["--user", "kid-1", "--offline", "status"])
            #expect(offline["source"] as? String == "cache")
            #expect(offline["activeEntitlements"] as? [String] == ["family"])
            #expect(try await demo.run(["--user", "kid-1", "--offline", "access", "challenges.create"])["outcome"] as? String == "allowed")
            // A second device signed in with the same Apple ID restores; another person's device doesn't.
            let restored = try await demo.run(
                ["--user", "kid-1", "--cache", demo.folder.appendingPathComponent("second-device").path, "--store-account", appleID, "restore"])
            #expect(restored["activeEntitlements"] as? [String] == ["family"] && restored["restored"] as? Bool == true && restored["message"] == nil)
            let stranger = try await demo.run(["--user", "kid-2", "--cache", demo.folder.appendingPathComponent("strangers-device").path, "restore"])
            #expect(stranger["activeEntitlements"] as? [String] == [])
            // Seed 001's words when the store has nothing active for the user.
            #expect(stranger["restored"] as? Bool == false && stranger["message"] as? String == "No active subscriptions found.")
            #expect(try await demo.run(["--user", "kid-1", "--offline", "use", "conversations"])["queued"] as? Int == 1)
            let refused = try await CommandRunner.sampleApp.run(demo.base + ["--user", "kid-9", "--offline", "status"], in: demo.folder)
            #expect(refused.status == 1 && refused.standardError.hasPrefix("error: customerInfo.unavailable: "))
        }
    }

    @Test("log-in on a new device: the offline answer afterwards is the logged-in user's; a log-out makes a new anonymous user")
    func logInThenOffline() async throws {
        try await Self.withDemo(["--subscribers", "5"]) { demo in
            let device = ["--cache", demo.folder.appendingPathComponent("new-device").path]
            let anonymous = try await demo.run(device + ["status"])["appUserID"] as? String
            #expect(anonymous?.hasPrefix("$anon:") == true)
            #expect(try await demo.run(device + ["login", "reader@example.com"])["appUserID"] as? String == "reader@example.com")
            let offline = try await demo.run(device + ["--offline", "status"])
            #expect(offline["appUserID"] as? String == "reader@example.com" && offline["source"] as? String == "cache")
            let loggedOut = try await demo.run(device + ["logout"])["appUserID"] as? String
            #expect(loggedOut?.hasPrefix("$anon:") == true && loggedOut != anonymous)
        }
    }

    @Test("seed 001: a free Epilogue reader's third conversation is refused with the server's code and access says so; bad input and --help")
    func refusedQuotaAndBadInput() async throws {
        try await Self.withDemo(["--app", "Epilogue", "--subscribers", "5"]) { demo in
            let reader = ["--user", "free-reader"]
            for used in 1...2 {
                let sent = try await demo.run(reader + ["use", "conversations"])
                #expect(sent["sent"] as? Bool == true && sent["used"] as? Int == used)
            }
            let refused = try await CommandRunner.sampleApp.run(demo.base + reader + ["use", "conversations"], in: demo.folder)
            #expect(refused.status == 1 && refused.standardError.hasPrefix("error: usage.quotaExhausted: "), "\(refused.standardError)")
            let access = try await demo.run(reader + ["access", "conversations"])
            #expect(access["outcome"] as? String == "denied" && access["paywall"] as? String == "subscribe" && access["used"] as? Int == 2)
            for (arguments, prefix) in [
                (reader + ["use", "library"], "error: usage.notMetered: "), (reader + ["use", "no.such"], "error: usage.unknownFeature: "),
                (reader + ["access", "conversations", "--usage", "abc"], "error: usage: "), (reader + ["access", "conversations", "--usage", "1.5"], "error: usage: "),
                (reader + ["access", "conversations", "--usage", "-1"], "error: request.invalid: "), (["--user", "", "status"], "error: request.invalid: "),
            ] {
                let result = try await CommandRunner.sampleApp.run(demo.base + arguments, in: demo.folder)
                #expect(result.status == 1 && result.standardError.hasPrefix(prefix), "\(arguments): \(result.standardError)")
            }
            let help = try await CommandRunner.sampleApp.run(["--help"], in: demo.folder)
            #expect(help.status == 0 && help.standardOutput.contains("COMMAND: status"))
        }
    }

    @Test("an upgrade within a group, as Apple does it: the family plan bought over the individual one is one subscription, and the offline answer is the family's")
    func upgradeWithinGroup() async throws {
        try await Self.withDemo(["--subscribers", "5"]) { demo in
            let parent = ["--user", "upgrading-parent"]
            let individual = try await demo.run(parent + ["purchase", "com.screentimerewards.individual.monthly"])
            #expect(individual["outcome"] as? String == "purchase.success")
            let family = try await demo.run(parent + ["purchase", "com.screentimerewards.family.monthly"])
            let subscriptions = try #require(family["subscriptions"] as? [[String: Any]])
            #expect(subscriptions.count == 1)
            #expect(subscriptions.first?["productID"] as? String == "com.screentimerewards.family.monthly")
            let offline = try await demo.run(parent + ["--offline", "status"])
            #expect(offline["activeEntitlements"] as? [String] == ["family"])
            #expect(try await demo.run(parent + ["--offline", "access", "childDevices", "--usage", "5"])["outcome"] as? String == "allowed")
        }
    }

    @Test("seed 002: the paywall's yearly product says what it saves against twelve months (\"Save 17%\"), the monthly nothing")
    func yearlySavings() async throws {
        try await Self.withDemo(["--app", "PantryPal", "--subscribers", "10"]) { demo in
            let phone = demo.folder.appendingPathComponent("phone").path
            let offerings = try await demo.run(["--user", "cook", "--cache", phone, "offerings"])
            let products = try #require(offerings["products"] as? [[String: Any]])
            let saving = { (id: String) in products.first { $0["productID"] as? String == id }?["yearlySavings"] as? String }
            #expect(saving("com.pantrypal.premium.annual") == "Save 17%")
            #expect(saving("com.pantrypal.premium.monthly") == "")
        }
    }

    @Test("seed 003: a lifetime purchase in Magical Stories restores on a second device; offerings work offline once seen")
    func lifetimeRestore() async throws {
        try await Self.withDemo(["--app", "MagicalStories", "--subscribers", "10"]) { demo in
            let phone = demo.folder.appendingPathComponent("phone").path
            let offerings = try await demo.run(["--user", "reader", "--cache", phone, "offerings"])
            #expect((offerings["products"] as? [[String: Any]])?.contains { $0["productID"] as? String == "com.magicalstories.lifetime" } == true)
            let bought = try await demo.run(["--user", "reader", "--cache", phone, "purchase", "com.magicalstories.lifetime"])
            #expect(bought["outcome"] as? String == "purchase.success")
            let appleID = try #require((bought["customer"] as? [String: Any])?["storeAccount"] as? String)
            // Bought again: the purchase already made, not a second one, and the store isn't asked.
            let again = try await demo.run(["--user", "reader", "--cache", phone, "purchase", "com.magicalstories.lifetime"])
            #expect(again["outcome"] as? String == "purchase.alreadySubscribed")
            #expect((again["purchases"] as? [[String: Any]])?.count == 1)
            let tablet = demo.folder.appendingPathComponent("tablet").path
            #expect(try await demo.run(["--user", "reader", "--cache", tablet, "--store-account", appleID, "restore"])["activeEntitlements"] as? [String] == ["premium"])
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
                line = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first { $0.contains("swift run --package-path server sample-app") }.map(String.init)
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

extension SampleAppTests {
    @Test("Apple's rule for the introductory offer, kept by the server: a newcomer is offered it and gets the trial; an account that had one, buying on another device and Apple ID, is refused it")
    func introductoryOfferEligibility() async throws {
        try await Self.withDemo(["--subscribers", "5"]) { demo in
            func product(_ answer: [String: Any], _ id: String) -> [String: String]? {
                (answer["products"] as? [[String: String]])?.first { $0["productID"] == id }
            }
            let individual = "com.screentimerewards.individual.monthly", family = "com.screentimerewards.family.monthly"
            // A newcomer: offered the introductory offer, and the store gives it.
            let newcomer = ["--user", "intro-newcomer", "--cache", demo.folder.appendingPathComponent("newcomer-device").path]
            #expect(product(try await demo.run(newcomer + ["offerings"]), individual)?["introductoryOffer"] == "eligible")
            let trial = try await demo.run(newcomer + ["purchase", individual])
            #expect((trial["subscriptions"] as? [[String: String]])?.first?["state"] == "trial", "\(trial)")

            // An anonymous reader takes the trial on their first device, then logs in.
            let first = ["--cache", demo.folder.appendingPathComponent("first-device").path]
            _ = try await demo.run(first + ["purchase", individual])
            _ = try await demo.run(first + ["login", "returning-parent"])
            // On another device, with another Apple ID, the account is refused the offer in the group...
            let second = ["--user", "returning-parent", "--cache", demo.folder.appendingPathComponent("second-device").path, "--store-account", "other-apple-id"]
            let offered = try await demo.run(second + ["offerings"])
            #expect(product(offered, individual)?["introductoryOffer"] == "not eligible")
            #expect(product(offered, family)?["introductoryOffer"] == "not eligible")
            // ...and the store, given the server's signed word, sells the family plan without it (its own rule would have given a trial).
            let bought = try await demo.run(second + ["purchase", family])
            let states = (bought["subscriptions"] as? [[String: String]])?.filter { $0["productID"] == family }.map { $0["state"] }
            #expect(states == ["active"], "\(bought)")
        }
    }
}
