import EntitleKit
import EntitleTestSupport
import EntitleWire
import Foundation
import NIOConcurrencyHelpers
import Observation
import Testing

@Suite("EntitleModel")
struct EntitleModelTests {
    @Test("follows the customer info: the first answer, then a purchase once fetched, with Observation told of the change")
    func follows() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let entitle = try Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-1")
            try await Self.follow(entitle, server: server)
        }
    }

    @MainActor
    static func follow(_ entitle: Entitle, server: EntitleTests.Server) async throws {
        let model = EntitleModel(entitle)
        await model.start()
        #expect(model.customerInfo?.appUserID == "parent-1")
        #expect(!model.isActive("family"))
        let changed = NIOLockedValueBox(false)
        withObservationTracking { _ = model.customerInfo } onChange: { changed.withLockedValue { $0 = true } }

        try await server.purchase(
            "com.screentimerewards.family.monthly", for: "parent-1", original: "model-1", expires: server.clock.now.addingTimeInterval(30 * 86_400))
        _ = try await entitle.customerInfo(fetchPolicy: .fetchCurrent)
        for _ in 0..<500 where !model.isActive("family") { try await Task.sleep(for: .milliseconds(10)) }
        #expect(model.isActive("family"), "the update reached the model")
        #expect(changed.withLockedValue { $0 }, "Observation was told")
        #expect(model.lastError == nil)
        model.stop()
    }

    @Test("offline with nothing trusted to answer from, the model publishes the error; offline with a cache, the cached answer")
    func offline() async throws {
        try await EntitleTests.run { server in
            let folder = EntitleTests.folder()
            defer { try? FileManager.default.removeItem(at: folder) }
            let cold = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-2")
            try await Self.offline(cold, cached: false)
            _ = try await Entitle(configuration: server.configuration(folder: folder), appUserID: "parent-2").customerInfo(fetchPolicy: .fetchCurrent)
            let warm = try Entitle(configuration: server.configuration(folder: folder, online: false), appUserID: "parent-2")
            try await Self.offline(warm, cached: true)
        }
    }

    @MainActor
    static func offline(_ entitle: Entitle, cached: Bool) async throws {
        let model = EntitleModel(entitle)
        await model.start()
        if cached {
            #expect(model.customerInfo?.source == .cache)
            #expect(model.lastError == nil)
        } else {
            #expect(model.customerInfo == nil)
            #expect(model.lastError?.code == .noTrustedCustomerInfo)
        }
        model.stop()
    }
}
