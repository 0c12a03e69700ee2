import AppStoreModels
import AppStoreVerification
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import HummingbirdTesting
import Logging
import Testing

/// What the server's background work leaves when graceful shutdown cuts it short.
@Suite("Graceful shutdown: background work cut short")
struct GracefulShutdownTests {
    static let bundleID = "com.screentimerewards"

    @Test(
        "a server stopped with a webhook in flight, its background passes running every millisecond, logs no failure and charges the endpoint nothing",
        arguments: StorageEngine.allCases)
    func backgroundWorkCutShort(engine: StorageEngine) async throws {
        let pki = try TestPKI()
        let clock = TestClock()
        clock.set(ReferenceTime.day(1))
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let records = RecordingLogHandler.Records()
        try await WebhookReceiver.run { url, receiver in
            try await engine.withStore { shared in
                let store = shared.forApp(Self.bundleID)
                let apple = AppleFacts(bundleID: Self.bundleID)
                // Appended side by side: committed in groups.
                try await withThrowingTaskGroup(of: Void.self) { group in
                    for index in 0..<20 {
                        let purchase = apple.subscription(
                            "com.screentimerewards.individual.monthly", original: "O\(index)", id: "T\(index)", purchase: ReferenceTime.start,
                            expires: ReferenceTime.day(31))
                        group.addTask { _ = try await store.append(LedgerEvents.appTransaction(index, appUserID: "user-\(index)", purchase)) }
                    }
                    try await group.waitForAll()
                }
                let webhooks = store.webhookStore()
                try await webhooks.addEndpoint(WebhookEndpoint(
                    id: "we_test", app: Self.bundleID, url: url.absoluteString, eventTypes: [], secrets: ["whsec_test_secret"],
                    createdAt: ReferenceTime.day(-1)))
                receiver.hold()
                let verifier = SignedDataVerifier(
                    configuration: VerifierConfiguration(bundleID: Self.bundleID, environment: .sandbox, rootCertificates: [pki.root]),
                    now: clock.reading)
                var configuration = ServerConfiguration(
                    http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .store(shared),
                    catalog: Fixtures.exampleCatalog("ScreenTimeRewards"), verifiers: [verifier], keys: keys,
                    analyticsRefreshInterval: .milliseconds(1), now: clock.reading,
                    logger: RecordingLogHandler.logger("entitle.tests.server", records: records))
                configuration.webhookInterval = .milliseconds(1)
                let app = try await buildApplication(configuration: configuration)
                try await app.test(.live) { _ in
                    // Stopped once the endpoint holds a request unanswered.
                    for _ in 0..<6_000 where receiver.requests.isEmpty { try await Task.sleep(for: .milliseconds(5)) }
                    try #require(!receiver.requests.isEmpty, "the worker sent nothing")
                }
                receiver.release()
                let failures = records.all.filter { $0.level >= .warning }
                #expect(failures.isEmpty, "\(failures.map { "\($0.message) \($0.metadata)" })")
                let endpoint = try #require(try await webhooks.endpoint(id: "we_test"))
                #expect(endpoint.consecutiveFailures == 0 && endpoint.pausedUntil == nil)
                let deliveries = try await webhooks.deliveries(endpointID: nil, appUserID: nil, status: nil, limit: 2_000)
                #expect(!deliveries.isEmpty)
                #expect(deliveries.allSatisfy { $0.status == .pending && $0.attempts == 0 }, "no attempt was counted")
            }
        }
    }
}
