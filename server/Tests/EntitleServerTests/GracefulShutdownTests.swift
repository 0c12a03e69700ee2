import AppStoreModels
import AppStoreServerAPI
import AppStoreVerification
import Crypto
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOConcurrencyHelpers
import Testing

/// What the server's background work leaves when graceful shutdown cuts it short.
@Suite("Graceful shutdown: background work cut short")
struct GracefulShutdownTests {
    static let bundleID = "com.screentimerewards"

    @Test(
        "a server stopped with a webhook in flight, its background passes running every millisecond, logs no failure and charges the endpoint nothing",
        arguments: StorageEngine.databases)
    func backgroundWorkCutShort(engine: StorageEngine) async throws {
        let pki = try TestPKI.shared()
        let clock = TestClock()
        clock.set(ReferenceTime.day(1))
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let records = RecordingLogHandler.Records()
        try await WebhookReceiver.run { url, receiver in
            try await engine.withStore { shared in
                let store = shared.forApp(BundleID(Self.bundleID))
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
                    id: "we_test", app: BundleID(Self.bundleID), url: url.absoluteString, eventTypes: [], secrets: ["whsec_test_secret"],
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

    /// The background jobs that ask Apple, each under a lease an instance holds while it runs.
    enum AppleJob: String, CaseIterable, Sendable {
        case reconciliation
        case consumption = "consumption-requests"

        var catalog: String { self == .reconciliation ? "ScreenTimeRewards" : "Epilogue" }
        var bundleID: String { self == .reconciliation ? "com.screentimerewards" : "com.epilogue.app" }
        var cutShort: String { self == .reconciliation ? "reconciliation cut short by shutdown" : "consumption answers cut short by shutdown" }
    }

    @Test(
        "a pass that asks Apple, cut short by shutdown before Apple answers, releases its lease for the next instance and counts as no failure",
        arguments: StorageEngine.databases, AppleJob.allCases)
    func applePassCutShort(engine: StorageEngine, job: AppleJob) async throws {
        let clock = TestClock()
        clock.set(ReferenceTime.day(1))
        let pki = try TestPKI.shared()
        let keys = try APIKeys(secretKeys: [ServerHarness.secretKey], publicKeySecret: "public-key-secret-for-tests")
        let records = RecordingLogHandler.Records()
        let metrics = ServerMetrics()
        let teamKey = InAppPurchaseKey(privateKey: P256.Signing.PrivateKey(), keyID: "KEY0000001", issuerID: "issuer-team")
        try await Self.withUnansweredAPI { base, asked in
            try await engine.withStore { shared in
                let store = shared.forApp(BundleID(job.bundleID))
                if job == .consumption {
                    // A refund request an hour old: within the 12 hours Apple waits for an answer.
                    let purchase = AppleFacts(bundleID: job.bundleID).subscription(
                        "com.epilogue.plus.monthly", original: "O1", id: "T1", purchase: ReferenceTime.start, expires: ReferenceTime.day(31),
                        signed: clock.now.addingTimeInterval(-3_600))
                    _ = try await store.append(LedgerEvents.notification(1, appUserID: "reader", type: .consumptionRequest, transaction: purchase))
                }
                let verifiers = [SignedDataVerifier(
                    configuration: VerifierConfiguration(bundleID: job.bundleID, environment: .sandbox, rootCertificates: [pki.root]),
                    now: clock.reading)]
                let client = AppStoreServerAPIClient(
                    token: teamKey.token(bundleID: job.bundleID), endpoints: .init(production: base, sandbox: nil), verifiers: verifiers,
                    now: clock.reading)
                var configuration = ServerConfiguration(
                    http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .store(shared),
                    apps: [ServedApp(bundleID: BundleID(job.bundleID), catalog: Fixtures.exampleCatalog(job.catalog), verifiers: verifiers, serverAPI: client)],
                    keys: keys, analyticsRefreshInterval: nil, metrics: metrics, now: clock.reading,
                    logger: RecordingLogHandler.logger("entitle.tests.server", records: records))
                configuration.reconciliationInterval = job == .reconciliation ? .milliseconds(1) : nil
                configuration.consumptionInterval = job == .consumption ? .milliseconds(1) : nil
                configuration.webhookInterval = nil
                let app = try await buildApplication(configuration: configuration)
                try await app.test(.live) { _ in
                    // Stopped once the pass waits for Apple's answer.
                    for _ in 0..<6_000 where asked.withLockedValue({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(5)) }
                    try #require(asked.withLockedValue { $0 } > 0, "the pass asked Apple nothing")
                }
                let failures = records.all.filter { $0.level >= .warning }
                #expect(failures.isEmpty, "\(failures.map { "\($0.message) \($0.metadata)" })")
                #expect(records.all.contains { $0.message == job.cutShort })
                #expect(!metrics.render().contains(#"outcome="failed""#))
                let next = try await store.acquireJob(LeasedJob(rawValue: job.rawValue), holder: "the-next-instance", now: clock.now, until: clock.now.addingTimeInterval(60))
                #expect(next != nil, "the lease was left to lapse")
            }
        }
    }

    /// An App Store Server API on loopback that counts the requests it gets and answers none of them
    /// while `body` runs (each is answered 503 once it has returned).
    static func withUnansweredAPI(_ body: @Sendable (URL, NIOLockedValueBox<Int>) async throws -> Void) async throws {
        let asked = NIOLockedValueBox(0)
        let answering = NIOLockedValueBox(false)
        let router = Router()
        for method in [HTTPRequest.Method.get, .post, .put] {
            router.on("/**", method: method) { _, _ -> Response in
                asked.withLockedValue { $0 += 1 }
                while !answering.withLockedValue({ $0 }) { try await Task.sleep(for: .milliseconds(5)) }
                return Response(status: .serviceUnavailable)
            }
        }
        let apple = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)))
        try await apple.test(.live) { client in
            defer { answering.withLockedValue { $0 = true } }
            let port = try #require(client.port)
            try await body(try #require(URL(string: "http://127.0.0.1:\(port)")), asked)
        }
    }
}
