import EntitleAPI
import EntitleCore
import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import Testing

extension EntitleTests {
    /// Creates and starts an experiment on the server, as an operator's backend would.
    static func startExperiment(_ server: Server, _ request: CreateExperimentRequest) async throws {
        let transport = Patient()
        let headers = ["Authorization": "Bearer \(server.secretKey)", "Content-Type": "application/json"]
        let created = try await transport.send(
            APIRequest(method: "POST", path: "/v1/experiments", headers: headers, body: try WireJSON.encoder.encode(request)), to: server.url, timeout: .seconds(10))
        #expect(created.status == 201)
        let started = try await transport.send(
            APIRequest(method: "POST", path: "/v1/experiments/\(request.id)/start", headers: headers, body: Data("{}".utf8)), to: server.url, timeout: .seconds(10))
        #expect(started.status == 200)
    }

    @Test("offerings are the user's: an experiment's variant, the same from the cache offline, and never another user's")
    func offeringsPerUser() async throws {
        try await Self.run { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let request = CreateExperimentRequest(
                id: "order", variants: [ExperimentVariant(id: "control", offeringID: "default"), ExperimentVariant(id: "b", offeringID: "individual-first")])
            try await Self.startExperiment(server, request)
            let experiment = Experiment(id: "order", variants: request.variants, state: .running, createdAt: server.clock.now)
            let expected = try #require(ExperimentAssignment.variant(of: experiment, for: "parent-9"))

            let online = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-9")
            let served = try await online.offerings()
            #expect(served.servedBy == .experiment(id: "order", variant: expected.id) && served.current?.id == expected.offeringID)
            #expect(served.all.map(\.id) == ["default", "individual-first"])

            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-9")
            #expect(try await offline.offerings() == served)
            // Another user on this device: the cached offerings were served to someone else.
            let other = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-10")
            await #expect(throws: EntitleError.self) { _ = try await other.offerings() }
        }
    }

    @Test("setAttributes: the app's own attribute reaches the server's targeting, the time zone is set, and a bad one is refused before any request")
    func attributes() async throws {
        var catalog = Fixtures.exampleCatalog("ScreenTimeRewards")
        catalog.targeting.insert(TargetingRule(offeringID: "individual-first", attributes: ["role": ["teacher", "school"]]), at: 0)
        try await Self.run(catalog: catalog) { server in
            let folder = Self.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let online = try Entitle(configuration: server.configuration(folder: folder), appUserID: "teacher-1")
            #expect(try await online.offerings().current?.id == "default")
            let info = try await online.setAttributes(["role": "teacher"])
            #expect(info.attributes["role"] == "teacher")
            #expect(try await online.offerings().current?.id == "individual-first")
            let zoned = try await online.setTimeZone(try #require(TimeZone(identifier: "Pacific/Auckland")))
            #expect(zoned.attributes["timeZone"] == "Pacific/Auckland")

            let offline = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "teacher-1")
            for bad in [["9lives": "x"], ["role": String(repeating: "a", count: 501)]] as [[String: String?]] {
                let error = await #expect(throws: EntitleError.self) { try await offline.setAttributes(bad) }
                #expect(error?.code == .invalidRequest, "refused before any request (offline, it would be network): \(error?.message ?? "")")
            }
        }
    }
}
