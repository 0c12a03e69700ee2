import AppStoreModels
import EntitleCore
import EntitleTestSupport
import EntitleWire
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Hummingbird
import NIOConcurrencyHelpers
import Testing

/// `entitle-traced serve --otel-endpoint` against a local OTLP/HTTP receiver: one
/// App Store notification's trace, from its request through verification and the ledger to the webhook
/// it causes, delivered later by the background publisher under the same trace.
@Suite("Tracing")
struct TracingTests {
    struct Span: Sendable {
        var traceID: String
        var spanID: String
        var parentSpanID: String
        var name: String
        var milliseconds: Double
    }

    /// An OTLP/HTTP receiver (JSON): keeps every span it is sent.
    final class Collector: Sendable {
        private let received = NIOLockedValueBox<[Span]>([])
        var spans: [Span] { received.withLockedValue { $0 } }

        func take(_ body: Data) {
            guard let root = try? JSONSerialization.jsonObject(with: body) as? [String: Any] else { return }
            var found: [Span] = []
            for resource in root["resourceSpans"] as? [[String: Any]] ?? [] {
                for scope in resource["scopeSpans"] as? [[String: Any]] ?? [] {
                    for span in scope["spans"] as? [[String: Any]] ?? [] {
                        let start = Self.number(span["startTimeUnixNano"]), end = Self.number(span["endTimeUnixNano"])
                        found.append(Span(
                            traceID: Self.hex(span["traceId"]), spanID: Self.hex(span["spanId"]), parentSpanID: Self.hex(span["parentSpanId"]),
                            name: span["name"] as? String ?? "", milliseconds: (end - start) / 1_000_000))
                    }
                }
            }
            received.withLockedValue { $0 += found }
        }

        /// An ID as hex, whether sent as OTLP/JSON's hex or as protobuf JSON's base64.
        static func hex(_ value: Any?) -> String {
            guard let text = value as? String, !text.isEmpty else { return "" }
            if text.count == 32 || text.count == 16, text.allSatisfy(\.isHexDigit) { return text.lowercased() }
            return Data(base64Encoded: text).map { $0.map { String(format: "%02x", $0) }.joined() } ?? text
        }

        static func number(_ value: Any?) -> Double {
            if let text = value as? String { return Double(text) ?? 0 }
            return (value as? NSNumber)?.doubleValue ?? 0
        }
    }

    @Test("one notification's spans, from HTTP to the webhook: the request, verification, the ledger append, and the delivery under the same trace, whose traceparent the endpoint gets")
    func notificationTrace() async throws {
        let (folder, pki, rootFile) = try DurabilityTests.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let collector = Collector()
        let router = Router()
        router.post("/v1/traces") { request, _ -> Response in
            let body = try await request.body.collect(upTo: 16 << 20)
            collector.take(Data(body.readableBytesView))
            return Response(status: .ok)
        }
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let receiver = Application(
            router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in continuation.yield(channel.localAddress?.port ?? 0) })
        try await WebhookReceiver.run { hooks, webhooks in
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask { try await receiver.runService(gracefulShutdownSignals: []) }
                var iterator = ports.makeAsyncIterator()
                let collectorPort = try #require(await iterator.next())
                let port = TestPorts.random()
                let server = try CommandRunner.entitleTraced.start([
                    "serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path,
                    "--environment", "sandbox", "--app-apple-id", "1234", "--root-certificate", rootFile.path, "--secret-key", "sk_durability_test_0001",
                    "--public-key-secret", "tracing-test", "--webhook-url", hooks.absoluteString, "--webhook-secret", "whsec_tracing_test_0123456789",
                    "--otel-endpoint", "http://127.0.0.1:\(collectorPort)",
                ], in: folder, environment: ["OTEL_EXPORTER_OTLP_PROTOCOL": "http/json", "OTEL_BSP_SCHEDULE_DELAY": "200"])
                defer { server.signal(SIGKILL) }
                try await DurabilityTests.waitForHealth(port: port, server)

                // A purchase, then Apple's renewal notification of it: the notification is the traced one.
                let apple = AppleFacts(bundleID: "com.screentimerewards")
                let start = Date().addingTimeInterval(-86_400)
                let bought = apple.subscription(DurabilityTests.product, original: "9500", id: "9500-0", purchase: start, expires: start.addingTimeInterval(3_600))
                #expect(try await DurabilityTests.post(
                    port: port, path: "/v1/subscribers/parent-95/transactions", key: "sk_durability_test_0001",
                    body: SubmitTransactionRequest(signedTransaction: pki.sign(bought))) == 200)
                let renewal = apple.subscription(
                    DurabilityTests.product, original: "9500", id: "9500-1", purchase: start.addingTimeInterval(3_600),
                    expires: Date().addingTimeInterval(30 * 86_400), reason: .renewal)
                let payload = ResponseBodyV2DecodedPayload(
                    notificationType: .didRenew, notificationUUID: UUID().uuidString,
                    data: NotificationData(environment: .sandbox, appAppleId: 1234, bundleId: "com.screentimerewards", signedTransactionInfo: pki.sign(renewal)),
                    version: "2.0", signedDate: Date())
                #expect(try await DurabilityTests.post(
                    port: port, path: "/v1/app-store/notifications", key: nil, body: AppStoreNotificationRequest(signedPayload: pki.sign(payload))) == 200)

                // The notification's trace, until its webhook's delivery is in it.
                var trace: [Span] = []
                for _ in 0..<300 {
                    if let request = collector.spans.first(where: { $0.name == "/v1/app-store/notifications" }) {
                        trace = collector.spans.filter { $0.traceID == request.traceID }
                        if trace.contains(where: { $0.name == "webhook delivery" }) { break }
                    }
                    try await Task.sleep(for: .milliseconds(100))
                }
                let names = Set(trace.map(\.name))
                #expect(names.isSuperset(of: ["/v1/app-store/notifications", "verify signed data", "ledger append", "webhook delivery", "POST"]), "spans: \(names)")
                let request = try #require(trace.first { $0.name == "/v1/app-store/notifications" })
                let delivery = try #require(trace.first { $0.name == "webhook delivery" })
                #expect(delivery.parentSpanID == request.spanID, "the delivery continues the request")
                #expect(trace.filter { ["verify signed data", "ledger append"].contains($0.name) }.allSatisfy { $0.parentSpanID == request.spanID })
                // The HTTP client's own span of the delivery's request, under the delivery.
                let deliveries = Set(trace.filter { $0.name == "webhook delivery" }.map(\.spanID))
                #expect(trace.contains { $0.name == "POST" && deliveries.contains($0.parentSpanID) })
                // The endpoint got the trace too.
                #expect(
                    webhooks.requests.contains { $0.headers["traceparent"]?.contains(request.traceID) == true },
                    "trace \(request.traceID); the endpoint's: \(webhooks.requests.map { $0.headers["traceparent"] ?? "none" })")
                // For the record (docs/operations.md, "Traces").
                for span in trace.sorted(by: { $0.name < $1.name }) { print(String(format: "trace: %@ %.2f ms", span.name, span.milliseconds)) }

                server.signal(SIGTERM)
                #expect(await server.exit(within: .seconds(10)) == ChildProcess.Termination(status: 0, signalled: false))
                group.cancelAll()
            }
        }
    }
}

extension TracingTests {
    @Test("entitle, which doesn't link swift-otel, refuses --otel-endpoint as a usage error naming entitle-traced; a malformed endpoint is refused by both")
    func withoutExporter() async throws {
        let refused = try await CommandRunner.entitle.run(["serve", "--otel-endpoint", "http://127.0.0.1:4318", "--port", "0"])
        #expect(refused.status == 64 && refused.standardError.contains("entitle-traced"))
        let malformed = try await CommandRunner.entitleTraced.run(["serve", "--otel-endpoint", "collector:4318", "--port", "0"])
        #expect(malformed.status == 64 && malformed.standardError.contains("--otel-endpoint"))
    }
}
