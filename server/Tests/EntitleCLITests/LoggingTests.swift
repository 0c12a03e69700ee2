import AppStoreModels
import EntitleCore
import EntitleTestSupport
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `entitle serve --log-format json --log-level debug` as an operator runs it: every line a JSON object,
/// one request's lines tied by its ID (and the ID in its response), no key, token or signed payload in
/// any line, and a clean shutdown without an error line.
@Suite("Logging")
struct LoggingTests {
    static let secretKey = "sk_durability_test_0001"
    static let publicKeySecret = "pks_logging_test_secret_0123456789"

    static func request(
        port: Int, _ method: String, _ path: String, key: String?, id: String? = nil, body: Data? = nil
    ) async throws -> (status: Int, requestID: String?) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
        request.httpMethod = method
        request.httpBody = body
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let key { request.setValue("Bearer \(key)", forHTTPHeaderField: "Authorization") }
        if let id { request.setValue(id, forHTTPHeaderField: "X-Request-ID") }
        let (_, response) = try await TestHTTP.answer(for: request)
        let http = response as? HTTPURLResponse
        return (http?.statusCode ?? 0, http?.value(forHTTPHeaderField: "X-Request-ID"))
    }

    @Test("JSON lines at debug: one request's lines carry its ID, as its response does; no secret in any line; SIGTERM logs no error")
    func jsonLines() async throws {
        let (folder, pki, rootFile) = try DurabilityTests.setUp()
        defer { try? FileManager.default.removeItem(at: folder) }
        let errors = folder.appendingPathComponent("serve.err")
        let port = TestPorts.random()
        let server = try CommandRunner.entitle.start([
            "serve", "--port", "\(port)", "--catalog", Fixtures.examples.appendingPathComponent("ScreenTimeRewards").path,
            "--environment", "sandbox", "--app-apple-id", "1234", "--root-certificate", rootFile.path, "--secret-key", Self.secretKey,
            "--public-key-secret", Self.publicKeySecret, "--log-format", "json", "--log-level", "debug",
        ], in: folder, standardError: .file(errors))
        defer { server.signal(SIGKILL) }
        try await DurabilityTests.waitForHealth(port: port, server)

        let apple = AppleFacts(bundleID: "com.screentimerewards")
        let signed = pki.sign(apple.subscription(
            "com.screentimerewards.family.monthly", original: "7100", purchase: Date().addingTimeInterval(-60), expires: Date().addingTimeInterval(86_400 * 30)))
        let submit = try JSONSerialization.data(withJSONObject: ["signedTransaction": signed])
        let traced = try await Self.request(port: port, "POST", "/v1/subscribers/parent-71/transactions", key: Self.secretKey, id: "req-logging-1", body: submit)
        #expect(traced == (200, "req-logging-1"))
        let refused = try await Self.request(
            port: port, "POST", "/v1/app-store/notifications", key: nil, body: try JSONSerialization.data(withJSONObject: ["signedPayload": signed + "x"]))
        #expect(refused.status == 400 && refused.requestID?.count == 16, "a new ID for a request that brings none, on an error too")
        let unauthorized = try await Self.request(port: port, "GET", "/v1/subscribers/parent-71", key: "sk_wrong_key_0123456789", id: "not an id!")
        #expect(unauthorized.status == 401 && unauthorized.requestID != "not an id!")

        server.signal(SIGTERM)
        #expect(await server.exit(within: .seconds(10)) == ChildProcess.Termination(status: 0, signalled: false))
        let text = try String(contentsOf: errors, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let objects = lines.compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
        #expect(objects.count == lines.count && !lines.isEmpty, "every line a JSON object")
        #expect(objects.allSatisfy { $0["time"] is String && $0["level"] is String && $0["message"] is String })
        let tied = objects.filter { $0["request.id"] as? String == "req-logging-1" }
        #expect(tied.contains { $0["message"] as? String == "request" && $0["http.status"] as? String == "200" })
        #expect(tied.count >= 2, "the service's lines too: \(tied.map { $0["message"] ?? "" })")
        for secret in [Self.secretKey, Self.publicKeySecret, "sk_wrong_key_0123456789", signed, String(signed.split(separator: ".")[2])] {
            #expect(!text.contains(secret), "a secret in the log: \(secret.prefix(12))…")
        }
        let bad = objects.filter { ["error", "critical"].contains($0["level"] as? String) }
        #expect(bad.isEmpty, "error lines: \(bad.map { $0["message"] ?? "" })")
    }
}
