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
    /// A running `entitle demo` of `app`, and what its sample-app line tells an app.
    struct Demo {
        let process: ChildProcess
        let folder: URL
        let server: URL
        let bundleID: String
        let appKey: String
        let serverPublicKey: String

        static func start(app: String? = nil) async throws -> Demo {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-localstore-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let port = TestPorts.random()
            let log = folder.appendingPathComponent("demo.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            let demo = try CommandRunner.entitle.start(
                ["demo", "--subscribers", "10", "--months", "2", "--port", "\(port)", "--data", folder.appendingPathComponent("data").path]
                    + (app.map { ["--app", $0] } ?? []),
                standardOutput: .file(log))
            var line: String?
            for _ in 0..<600 where line == nil && demo.isRunning {
                line = (try? String(contentsOf: log, encoding: .utf8))?.split(separator: "\n").first { $0.contains("swift run --package-path server sample-app") }.map(String.init)
                if line == nil { try await Task.sleep(for: .milliseconds(100)) }
            }
            guard let line else {
                _ = await demo.stop()
                try? FileManager.default.removeItem(at: folder)
                throw DemoFailure(log: "the demo printed no sample-app line")
            }
            let words = line.split(separator: " ").map(String.init)
            func value(_ flag: String) throws -> String { words[try #require(words.firstIndex(of: flag)) + 1] }
            return Demo(
                process: demo, folder: folder, server: try #require(URL(string: try value("--server"))), bundleID: try value("--bundle-id"),
                appKey: try value("--app-key"), serverPublicKey: try value("--server-public-key"))
        }

        /// Runs `body` against a demo started for `app`, then stops it and, once it has exited, removes its folder.
        static func with(app: String? = nil, _ body: (Demo) async throws -> Void) async throws {
            let demo = try await start(app: app)
            do {
                try await body(demo)
            } catch {
                await demo.stop()
                throw error
            }
            await demo.stop()
        }

        func stop() async {
            _ = await process.stop()
            try? FileManager.default.removeItem(at: folder)
        }

        func entitle(appUserID: String, store: LocalStore) throws -> Entitle {
            try Entitle(
                configuration: EntitleConfiguration(
                    serverURL: server, apiKey: appKey, serverPublicKey: serverPublicKey,
                    cacheFolder: folder.appendingPathComponent("cache-\(appUserID)"), store: store),
                appUserID: appUserID)
        }

        /// Asks the local store to refund `id` as Apple would on the customer's request.
        func refund(_ id: String, account: String) async throws -> Int? {
            try await post("local-store/v1/\(bundleID)/refunds", WireJSON.encoder.encode(LocalRefundRequest(account: account, originalTransactionID: id)))
        }

        func post(_ path: String, _ body: Data) async throws -> Int? {
            var request = URLRequest(url: server.appendingPathComponent(path))
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = body
            let (_, response) = try await TestHTTP.answer(for: request)
            return (response as? HTTPURLResponse)?.statusCode
        }
    }

    struct DemoFailure: Error { let log: String }

    @Test("a refund reaches the app through transaction updates and revokes at once")
    func refundThroughUpdates() async throws {
        try await Demo.with { demo in
            let store = LocalStore(storeURL: demo.server, bundleID: demo.bundleID, account: "family-account", pollInterval: .milliseconds(100))
            let entitle = try demo.entitle(appUserID: "kid-r", store: store)
            guard case .success(let bought) = await entitle.purchase("com.screentimerewards.family.monthly") else {
                Issue.record("the purchase must succeed")
                return
            }
            #expect(bought.isActive("family", at: Date()))
            let original = try #require(bought.subscriptions.first?.id)
            let updates = await entitle.customerInfoUpdates()
            await entitle.startTransactionUpdates()

            #expect(try await demo.refund(original, account: "family-account") == 200)

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

    @Test("a promotional offer: refused before the store while the rule leaves the user out; signed, checked by the store and bought at the offer's price once they lapsed")
    func promotionalOffer() async throws {
        try await Demo.with(app: "Epilogue") { demo in
            let (monthly, offer) = ("com.epilogue.plus.monthly", "winback.plus.half")
            let store = LocalStore(storeURL: demo.server, bundleID: demo.bundleID, account: "reader-account")
            let entitle = try demo.entitle(appUserID: "returning-reader", store: store)

            // Never subscribed, then subscribed: a win-back offer is for neither.
            guard case .notAllowed = await entitle.purchase(monthly, promotionalOfferID: offer) else {
                Issue.record("a newcomer is not eligible for a win-back offer")
                return
            }
            guard case .success(let bought) = await entitle.purchase(monthly) else {
                Issue.record("the purchase at full price must succeed")
                return
            }
            let first = try #require(bought.subscriptions.first)
            #expect(first.periodType == .normal)
            let active = await entitle.purchase(monthly, promotionalOfferID: offer)
            #expect(active.code == "purchase.notAllowed", "an active subscriber is not eligible: \(active)")
            let unknown = await entitle.purchase(monthly, promotionalOfferID: "free.forever")
            #expect(unknown.code == "purchase.productUnavailable", "\(unknown)")

            // Refunded: lapsed, so the server signs the offer and the store accepts the signature.
            #expect(try await demo.refund(first.id, account: "reader-account") == 200)
            // The store checks what Apple checks: a signature over another token, or another nonce, is refused.
            let api = SubscriberAPIClient(baseURL: demo.server, key: demo.appKey)
            let signed = try await api.promotionalOffer("returning-reader", productID: monthly, offerID: offer)
            let genuine = LocalPromotionalOffer(offerID: offer, keyID: signed.keyID, nonce: signed.nonce, timestamp: signed.timestamp, signature: signed.signature)
            var otherNonce = genuine
            otherNonce.nonce = UUID()
            for (token, promotion) in [(UUID(), genuine), (signed.appAccountToken, otherNonce)] {
                let body = try WireJSON.encoder.encode(
                    LocalPurchaseRequest(productID: monthly, account: "reader-account", appAccountToken: token, promotionalOffer: promotion))
                #expect(try await demo.post("local-store/v1/\(demo.bundleID)/purchases", body) == 400)
            }
            guard case .success(let winback) = await entitle.purchase(monthly, promotionalOfferID: offer) else {
                Issue.record("a lapsed subscriber buys with the win-back offer")
                return
            }
            let redeemed = try #require(winback.subscriptions.first { $0.id != first.id })
            #expect(redeemed.periodType == .promotional)
            #expect(redeemed.state.rawValue == "active")
            #expect(winback.isActive("plus", at: Date()))
        }
    }
}
