import EntitleCore
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// `/v1/experiments` and `GET /v1/subscribers/{id}/offerings`: an experiment's life, the variant each
/// subscriber is served and enrolled in once, on every device and after log-in.
@Suite("Experiments")
struct ExperimentsTests {
    static let request = CreateExperimentRequest(
        id: "paywall-order", name: "Annual first or monthly first",
        variants: [ExperimentVariant(id: "control", offeringID: "default"), ExperimentVariant(id: "monthly-first", offeringID: "monthly-first")])

    static func run(engine: StorageEngine = .sqlite, _ body: @Sendable @escaping (ServerHarness, any TestClientProtocol) async throws -> Void) async throws {
        try await ServerHarness.run(engine: engine, example: "PantryPal", bundleID: "com.pantrypal.app", body)
    }

    static func offerings(_ harness: ServerHarness, _ client: any TestClientProtocol, _ user: String, query: String = "") async throws -> OfferingsResponse {
        let path = "/v1/subscribers/\(user.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? user)/offerings\(query)"
        return try ServerHarness.decode(OfferingsResponse.self, try await harness.get(client, path, key: ServerHarness.secretKey))
    }

    static func post(_ harness: ServerHarness, _ client: any TestClientProtocol, _ path: String, _ body: ByteBuffer = ByteBuffer(string: "{}"),
                     expect: HTTPResponse.Status = .ok) async throws -> TestResponse {
        try await harness.post(client, path, key: ServerHarness.secretKey, body: body, expect: expect)
    }

    @Test("created as a draft, started, paused, stopped; each subscriber served their variant and enrolled once", arguments: StorageEngine.databases)
    func lifecycle(engine: StorageEngine) async throws {
        try await Self.run(engine: engine) { harness, client in
            let created = try ServerHarness.decode(Experiment.self, try await Self.post(harness, client, "/v1/experiments", ServerHarness.json(Self.request), expect: .created))
            #expect(created.state == .draft && created.revenueWindowDays == 30)
            let again = try await Self.post(harness, client, "/v1/experiments", ServerHarness.json(Self.request), expect: .conflict)
            #expect(ServerHarness.errorCode(again) == "experiment.exists")
            var unknown = Self.request
            unknown.id = "other"
            unknown.variants[1].offeringID = "black-friday"
            #expect(ServerHarness.errorCode(try await Self.post(harness, client, "/v1/experiments", ServerHarness.json(unknown), expect: .badRequest)) == "experiment.invalid")

            // A draft serves nobody: the default offering.
            #expect(try await Self.offerings(harness, client, "u-1").servedBy == "default")
            let started = try ServerHarness.decode(Experiment.self, try await Self.post(harness, client, "/v1/experiments/paywall-order/start"))
            #expect(started.state == .running && started.startedAt == harness.clock.now)

            var experiment = created
            experiment.state = .running
            for index in 0..<12 {
                let user = "u-\(index)"
                let expected = try #require(ExperimentAssignment.variant(of: experiment, for: AppUserID(user)))
                for _ in 0..<2 {
                    let served = try await Self.offerings(harness, client, user)
                    #expect(served.servedBy == "experiment" && served.experimentID == "paywall-order")
                    #expect(served.variantID == expected.id && served.currentOfferingID == expected.offeringID)
                }
                let enrolments = try await harness.store.events(appUserID: AppUserID(user)).filter { $0.source == .experiment }
                #expect(enrolments.count == 1, "enrolled once however often served")
            }

            // Paused: those enrolled keep their variant; nobody new is enrolled.
            _ = try await Self.post(harness, client, "/v1/experiments/paywall-order/pause")
            let kept = try await Self.offerings(harness, client, "u-3")
            #expect(kept.servedBy == "experiment")
            let newcomer = try await Self.offerings(harness, client, "newcomer")
            #expect(newcomer.servedBy == "default" && newcomer.experimentID == nil)
            #expect(try await harness.store.events(appUserID: "newcomer").filter { $0.source == .experiment }.isEmpty)

            // Stopped: everyone back to what targeting serves; a stopped experiment doesn't start again.
            _ = try await Self.post(harness, client, "/v1/experiments/paywall-order/stop")
            #expect(try await Self.offerings(harness, client, "u-3").servedBy == "default")
            let restart = try await Self.post(harness, client, "/v1/experiments/paywall-order/start", expect: .conflict)
            #expect(ServerHarness.errorCode(restart) == "experiment.invalidTransition")
            #expect(ServerHarness.errorCode(try await harness.get(client, "/v1/experiments/nope", key: ServerHarness.secretKey, expect: .notFound)) == "experiment.notFound")

            // The list and the results read the ledger: exposed subscribers per variant.
            let list = try ServerHarness.decode([Experiment].self, try await harness.get(client, "/v1/experiments", key: ServerHarness.secretKey))
            #expect(list.map(\.id) == ["paywall-order"] && list.first?.state == .stopped)
            let results = try await harness.get(client, "/v1/experiments/paywall-order", key: ServerHarness.secretKey)
            let json = try #require(try JSONSerialization.jsonObject(with: Data(String(buffer: results.body).utf8)) as? [String: Any])
            let variants = try #require((json["results"] as? [String: Any])?["variants"] as? [[String: Any]])
            #expect(variants.compactMap { $0["exposed"] as? Int }.reduce(0, +) == 12)

            // A public key reaches neither the experiments nor another subscriber's offerings.
            _ = try await harness.get(client, "/v1/experiments", key: harness.publicKey("u-1"), expect: .forbidden)
        }
    }

    @Test("rolled out: the chosen variant's offering for everyone; targeting serves the lapsed theirs otherwise")
    func rollOutAndTargeting() async throws {
        try await Self.run { harness, client in
            _ = try await Self.post(harness, client, "/v1/experiments", ServerHarness.json(Self.request), expect: .created)
            _ = try await Self.post(harness, client, "/v1/experiments/paywall-order/start")
            let refused = try await Self.post(harness, client, "/v1/experiments/paywall-order/rollout", ServerHarness.json(RollOutRequest(variantID: "z")), expect: .badRequest)
            #expect(ServerHarness.errorCode(refused) == "experiment.invalid")
            _ = try await Self.post(harness, client, "/v1/experiments/paywall-order/rollout", ServerHarness.json(RollOutRequest(variantID: "monthly-first")))
            for user in ["r-1", "r-2", "r-3"] {
                let served = try await Self.offerings(harness, client, user)
                #expect(served.servedBy == "rolled_out" && served.currentOfferingID == "monthly-first" && served.variantID == "monthly-first")
            }
            #expect(ServerHarness.errorCode(try await harness.get(client, "/v1/subscribers/r-1/offerings?storefront=France", key: ServerHarness.secretKey, expect: .badRequest)) == "request.invalid")
            #expect(ServerHarness.errorCode(try await harness.get(client, "/v1/subscribers/r-1/offerings?appVersion=two", key: ServerHarness.secretKey, expect: .badRequest)) == "request.invalid")
        }
    }

    @Test("the same subscriber on two devices: each device keeps its variant until log-in; once logged in, both see the account's, which never moves", arguments: StorageEngine.databases)
    func sameVariantAcrossDevices(engine: StorageEngine) async throws {
        try await Self.run(engine: engine) { harness, client in
            _ = try await Self.post(harness, client, "/v1/experiments", ServerHarness.json(Self.request), expect: .created)
            let started = try ServerHarness.decode(Experiment.self, try await Self.post(harness, client, "/v1/experiments/paywall-order/start"))
            // Two anonymous devices the hash puts in different variants, and an account whose own variant differs from the first's.
            let candidates = (0..<64).map { "$anon:00000000-0000-4000-8000-\(String(format: "%012d", $0))" }
            let variant = { (id: String) in ExperimentAssignment.variant(of: started, for: AppUserID(id))?.id }
            let first = try #require(candidates.first { variant($0) == "control" })
            let second = try #require(candidates.first { variant($0) == "monthly-first" })
            let account = try #require((0..<64).map { "reader-\($0)" }.first { variant($0) == "monthly-first" })

            let one = try await Self.offerings(harness, client, first)
            let two = try await Self.offerings(harness, client, second)
            #expect(one.variantID == "control" && two.variantID == "monthly-first")
            harness.clock.advance(days: 1.0 / 1_440)
            // The first device logs in: the account takes its enrolment (the hash would have given it the other).
            _ = try await Self.post(harness, client, "/v1/subscribers/\(first.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/alias",
                                    ServerHarness.json(AliasRequest(appUserID: account)))
            for id in [first, account] { #expect(try await Self.offerings(harness, client, id).variantID == "control") }
            // The second device logs in to the same account: the account's variant stands, on both devices, from now on.
            _ = try await Self.post(harness, client, "/v1/subscribers/\(second.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)/alias",
                                    ServerHarness.json(AliasRequest(appUserID: account)))
            for _ in 0..<3 {
                harness.clock.advance(days: 1.0 / 24)
                for id in [first, second, account] {
                    let served = try await Self.offerings(harness, client, id)
                    #expect(served.variantID == "control" && served.currentOfferingID == "default", "\(id)")
                }
            }
            #expect(try await harness.store.events(appUserID: AppUserID(account)).filter { $0.source == .experiment }.isEmpty,
                    "the account was enrolled by its first device's log-in, not anew")
        }
    }
}

extension ExperimentsTests {
    @Test("the dashboard shows each experiment's variants and results, and pauses, stops or rolls one out from its own page")
    func dashboard() async throws {
        try await Self.run { harness, client in
            _ = try await Self.post(harness, client, "/v1/experiments", ServerHarness.json(Self.request), expect: .created)
            _ = try await Self.post(harness, client, "/v1/experiments/paywall-order/start")
            for index in 0..<6 { _ = try await Self.offerings(harness, client, "d-\(index)") }
            let cookie = try #require(DashboardTests.sessionCookie(try await DashboardTests().signIn(client)))
            func page() async throws -> String { String(buffer: try await DashboardTests().page(client, "/dashboard/experiments", cookie: cookie).body) }
            func act(_ action: String, _ body: String = "") async throws -> TestResponse {
                var headers = HTTPFields()
                headers[.cookie] = cookie
                headers[.contentType] = "application/x-www-form-urlencoded"
                headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
                return try await client.execute(uri: "/dashboard/experiments/paywall-order/\(action)", method: .post, headers: headers, body: ByteBuffer(string: body))
            }
            let running = try await page()
            #expect(running.contains(#"data-experiment="paywall-order""#) && running.contains("<span data-state>running</span>"))
            #expect(running.contains("<td>control</td><td>default</td><td>1</td>") && running.contains("<td>monthly-first</td><td>monthly-first</td><td>1</td>"))
            let exposed = running.matches(of: /<td>(?:control|monthly-first)<\/td><td>[^<]*<\/td><td>1<\/td><td>(\d+)<\/td>/).compactMap { Int($0.output.1) }
            #expect(exposed.reduce(0, +) == 6)
            #expect(try await act("pause").status == .seeOther)
            #expect(try await page().contains("<span data-state>paused</span>"))
            #expect(try await act("rollout", "variant=monthly-first").status == .seeOther)
            let rolled = try await page()
            #expect(rolled.contains("<span data-state>rolled out</span> · monthly-first"))
            #expect(!rolled.contains("data-action="), "a rolled-out experiment has nothing left to do")
            #expect(try await act("start").status == .conflict)
        }
    }
}
