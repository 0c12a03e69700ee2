import EntitleCore
import EntitleServer
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

/// The audit log (docs/operations.md, "Audit log"): operators' changes, who made them, what they were sent
/// with (secrets redacted), when, and the request's ID; reads and refusals leave nothing.
@Suite("Audit log")
struct AuditLogTests {
    @Test("a grant by a named key, a webhook endpoint and a key made with the configured key: each recorded once, newest first; reads, refusals and apps' requests are not")
    func changesRecorded() async throws {
        try await ServerHarness.run { harness, client in
            let created = try ServerHarness.decode(
                KeyInfo.self,
                try await harness.post(
                    client, "/v1/keys", key: ServerHarness.secretKey, body: ServerHarness.json(CreateKeyRequest(kind: .secret, name: "support-jane")),
                    expect: .created))
            let janesKey = try #require(created.key)
            // Jane grants a week of Family.
            var headers = HTTPFields()
            headers[.authorization] = "Bearer \(janesKey)"
            headers[.contentType] = "application/json"
            headers[HTTPField.Name("X-Request-ID")!] = "req-grant-1"
            let grant = try await client.execute(
                uri: "/v1/subscribers/parent-1/grants", method: .post, headers: headers,
                body: ServerHarness.json(GrantRequest(entitlementID: "family", endsAt: harness.clock.now.addingTimeInterval(7 * 86_400), reason: "goodwill: app crashed")))
            #expect(grant.status.code / 100 == 2)
            // A webhook endpoint with its signing secret, by the configured key.
            _ = try await harness.post(
                client, "/v1/webhooks/endpoints", key: ServerHarness.secretKey,
                body: ServerHarness.json(CreateWebhookEndpointRequest(url: "https://example.com/hooks", secret: "whsec_audit_test_secret_0001")),
                expect: .created)
            // Not changes: a read, a refused request, an app's own request.
            _ = try await harness.get(client, "/v1/subscribers/parent-1", key: janesKey)
            _ = try await harness.post(
                client, "/v1/subscribers/parent-1/grants", key: janesKey, body: ServerHarness.json(GrantRequest(entitlementID: "no-such-thing")),
                expect: .badRequest)
            _ = try await harness.post(client, "/v1/subscribers/parent-2/trial", key: harness.publicKey("parent-2"), body: ByteBuffer())

            let log = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log", key: janesKey))
            #expect(log.entries.map(\.action) == [
                "POST /v1/webhooks/endpoints", "POST /v1/subscribers/{appUserID}/grants", "POST /v1/keys",
            ])
            let fingerprint = "secret:" + String(AuthenticationFingerprint.of(ServerHarness.secretKey))
            #expect(log.entries.map(\.actor) == [fingerprint, "key:\(created.id) (support-jane)", fingerprint])
            let granted = log.entries[1]
            #expect(granted.subject == "parent-1" && granted.requestID == "req-grant-1" && granted.status / 100 == 2)
            #expect(granted.request?.contains("goodwill: app crashed") == true)
            #expect(log.entries[0].request?.contains("whsec_audit_test_secret_0001") == false)
            #expect(log.entries[0].request?.contains("\"secret\":\"[redacted]\"") == true)
            let text = String(decoding: try JSONEncoder().encode(log), as: UTF8.self)
            #expect(!text.contains(janesKey) && !text.contains(ServerHarness.secretKey), "no key in the log")
            // Paged: one at a time, newest first.
            let first = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log?limit=1", key: janesKey))
            let next = try #require(first.next)
            let second = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log?limit=1&before=\(next)", key: janesKey))
            #expect(first.entries.map(\.action) + second.entries.map(\.action) == Array(log.entries.prefix(2)).map(\.action))
        }
    }
}

extension AuditLogTests {
    @Test("scoped keys: a support key changes a subscriber and is refused an admin route; a viewer only reads; each refusal says what it needs")
    func scopes() async throws {
        try await ServerHarness.run { harness, client in
            func key(_ scope: String) async throws -> String {
                let created = try ServerHarness.decode(
                    KeyInfo.self,
                    try await harness.post(
                        client, "/v1/keys", key: ServerHarness.secretKey, body: ServerHarness.json(CreateKeyRequest(kind: .secret, name: "\(scope)-1", scope: scope)),
                        expect: .created))
                #expect(created.scope == scope && created.key != nil)
                return created.key ?? ""
            }
            let (support, viewer) = (try await key("support"), try await key("viewer"))
            let grant = ServerHarness.json(GrantRequest(entitlementID: "family", endsAt: harness.clock.now.addingTimeInterval(86_400), reason: "support"))
            let endpoint = ServerHarness.json(CreateWebhookEndpointRequest(url: "https://example.com/hooks"))
            // Support: reads and changes a subscriber; not the app's settings.
            _ = try await harness.post(client, "/v1/subscribers/parent-1/grants", key: support, body: grant)
            _ = try await harness.get(client, "/v1/subscribers/parent-1", key: support)
            let refused = try await harness.post(client, "/v1/webhooks/endpoints", key: support, body: endpoint, expect: .forbidden)
            #expect(ServerHarness.errorCode(refused) == "auth.forbidden")
            #expect(String(buffer: refused.body).contains("support") && String(buffer: refused.body).contains("admin"))
            _ = try await harness.post(client, "/v1/keys", key: support, body: ServerHarness.json(CreateKeyRequest(kind: .secret)), expect: .forbidden)
            _ = try await harness.delete(client, "/v1/subscribers/parent-1", key: support, expect: .forbidden)
            // Viewer: reads only.
            _ = try await harness.get(client, "/v1/analytics/overview", key: viewer)
            _ = try await harness.get(client, "/v1/audit-log", key: viewer)
            _ = try await harness.post(client, "/v1/subscribers/parent-1/grants", key: viewer, body: grant, expect: .forbidden)
            // A scope is a secret key's.
            _ = try await harness.post(
                client, "/v1/keys", key: ServerHarness.secretKey, body: ServerHarness.json(CreateKeyRequest(kind: .app, scope: "viewer")), expect: .badRequest)
            // The audit log: the support key's grant, with its name; nothing refused.
            let log = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log", key: viewer))
            #expect(log.entries.filter { $0.actor.hasSuffix("(support-1)") }.map(\.action) == ["POST /v1/subscribers/{appUserID}/grants"])
        }
    }
}

extension AuditLogTests {
    @Test("the dashboard's changes are recorded under its session, forms redacted like bodies; its Audit page lists them")
    func dashboard() async throws {
        try await ServerHarness.run { harness, client in
            var headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
            let signIn = try await client.execute(
                uri: "/dashboard/login", method: .post, headers: headers,
                body: ByteBuffer(string: "key=" + (ServerHarness.secretKey.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")))
            let cookie = try #require(signIn.headers[.setCookie]?.split(separator: ";").first.map(String.init))
            headers[.cookie] = cookie
            headers[HTTPField.Name("Origin")!] = "http://localhost"
            headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
            let created = try await client.execute(uri: "/dashboard/keys", method: .post, headers: headers, body: ByteBuffer(string: "kind=app&name=iOS+app"))
            #expect(created.status.code < 400)
            let log = try ServerHarness.decode(AuditLogResponse.self, try await harness.get(client, "/v1/audit-log", key: ServerHarness.secretKey))
            let entry = try #require(log.entries.first)
            #expect(entry.action == "POST /dashboard/keys" && entry.actor.hasPrefix("dashboard:") && !entry.actor.contains(cookie))
            #expect(entry.request == #"{"kind":"app","name":"iOS app"}"#)
            let page = try await client.execute(uri: "/dashboard/audit", method: .get, headers: [.cookie: cookie])
            #expect(String(buffer: page.body).contains("POST /dashboard/keys"))
            #expect(!String(buffer: page.body).contains(ServerHarness.secretKey))
        }
    }
}
