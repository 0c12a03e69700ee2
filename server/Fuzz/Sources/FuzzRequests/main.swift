import AppStoreVerification
import EntitleCore
import EntitleServer
import EntitleStorage
import Foundation
import FuzzSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import LocalAppStore
import Logging
import NIOCore
import NIOFoundationCompat

/// Every operation of docs/openapi.json with fuzzed *values*: the operation, its path parameters, its
/// query parameters and its JSON body are built from the OpenAPI schema, each value drawn from
/// `FuzzValues` (integers at their bounds, dates at the edges of every calendar, wrong types, unknown
/// enumerations, awkward IDs), and sent through the server's real router and middleware over a real
/// SQLite ledger. Fails on a crash, a sanitizer report, or any 5xx but a retryable 503: a request's
/// values may be refused, never break the server. The dashboard's doors too, which no OpenAPI operation
/// describes: sign-in with a password, an invitation, and both WebAuthn ceremonies — a fresh challenge
/// answered with fuzzed authenticator data, attestation objects (CBOR) and signatures, as a signed-in
/// person or anyone could send them.

let secretKey = "sk_fuzz_0123456789abcdef"
let keys = try! APIKeys(secretKeys: [secretKey], publicKeySecret: "fuzz-public-key-secret")
nonisolated(unsafe) let document = try! JSONSerialization.jsonObject(with: Data(contentsOf: repositoryRoot.appendingPathComponent("docs/openapi.json"))) as! [String: Any]
nonisolated(unsafe) let components = document["components"] as? [String: Any] ?? [:]

struct Operation {
    var method: HTTPRequest.Method
    var path: String
    var parameters: [[String: Any]]
    var body: [String: Any]?
}

func resolve(_ object: [String: Any]) -> [String: Any] {
    guard let reference = object["$ref"] as? String else { return object }
    var node: Any = document
    for part in reference.dropFirst(2).split(separator: "/") { node = (node as? [String: Any])?[String(part)] ?? [:] }
    return resolve(node as? [String: Any] ?? [:])
}

nonisolated(unsafe) let operations: [Operation] = {
    var found: [Operation] = []
    for (path, item) in (document["paths"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
        guard let item = item as? [String: Any] else { continue }
        let shared = (item["parameters"] as? [[String: Any]] ?? []).map(resolve)
        for (method, operation) in item.sorted(by: { $0.key < $1.key }) {
            guard let operation = operation as? [String: Any], let verb = HTTPRequest.Method(method.uppercased()) else { continue }
            let own = (operation["parameters"] as? [[String: Any]] ?? []).map(resolve)
            let body = ((operation["requestBody"] as? [String: Any])?["content"] as? [String: Any])?["application/json"] as? [String: Any]
            found.append(Operation(method: verb, path: path, parameters: shared + own, body: (body?["schema"] as? [String: Any]).map(resolve)))
        }
    }
    return found
}()

/// Dates as the API reads them (ISO 8601), at the edges: years 0, 1, 2200, 9999, a leap day that isn't,
/// fractions, offsets, nonsense.
let edgeDates = [
    "2026-01-01T00:00:00Z", "2026-06-30T12:00:00Z", "2027-01-01T00:00:00Z", "0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z",
    "2199-12-31T23:59:59Z", "2200-01-01T00:00:01Z", "9999-12-31T23:59:59Z", "2026-02-30T00:00:00Z", "2026-01-01T00:00:00.123456Z",
    "2026-01-01T00:00:00+14:00", "2026-01-01", "-0001-01-01T00:00:00Z", "+10000-01-01T00:00:00Z", "", "now", "1767225600",
]
let ids = ["alice", "bob", "$anon:6f1c2a8e-4b1d-4c55-9d0e-3a7f7c1e2b90", "a b", "é", "%24anon%3A00", "x/y", "..", String(repeating: "z", count: 201)]

/// A JSON value for `schema`, drawn from `values` (depth-limited).
func json(_ schema: [String: Any], _ values: inout FuzzValues, depth: Int = 0) -> String {
    let schema = resolve(schema)
    if values.mutates() && values.byte() % 4 == 0 {
        return values.pick(["null", "0", "-1", "1e308", "\"\"", "[]", "{}", "true", "9223372036854775808", "\"\\u0000\""])
    }
    if let options = (schema["oneOf"] ?? schema["anyOf"]) as? [[String: Any]], !options.isEmpty {
        return json(values.pick(options), &values, depth: depth + 1)
    }
    if let cases = schema["enum"] as? [Any], !cases.isEmpty {
        let pick = values.pick(cases)
        if let text = pick as? String { return FuzzValues.json(values.mutates() ? values.string([text]) : text) }
        return "\(pick)"
    }
    let type = (schema["type"] as? String) ?? ((schema["type"] as? [String])?.first { $0 != "null" }) ?? (schema["properties"] != nil ? "object" : "string")
    switch type {
    case "integer":
        let low = (schema["minimum"] as? NSNumber)?.int64Value ?? 0
        return String(values.integer(around: low + 1))
    case "number":
        return values.pick(["0", "0.5", "-1", "1e308", "99.99", "4.9e-324"])
    case "boolean":
        return values.bool() ? "true" : "false"
    case "array":
        guard depth < 4 else { return "[]" }
        let items = schema["items"] as? [String: Any] ?? [:]
        let count = Int(values.byte() % 4)
        return "[" + (0..<count).map { _ in json(items, &values, depth: depth + 1) }.joined(separator: ",") + "]"
    case "object":
        guard depth < 4 else { return "{}" }
        var fields: [(String, String)] = []
        for (name, property) in (schema["properties"] as? [String: Any] ?? [:]).sorted(by: { $0.key < $1.key }) {
            fields.append((name, json(property as? [String: Any] ?? [:], &values, depth: depth + 1)))
        }
        if let extra = schema["additionalProperties"] as? [String: Any] {
            fields.append((values.string(["k", "email", "name"]), json(extra, &values, depth: depth + 1)))
        }
        return values.object(fields)
    default:
        if (schema["format"] as? String) == "date-time" { return FuzzValues.json(values.string(Array(edgeDates.prefix(3)), invalid: edgeDates)) }
        if (schema["format"] as? String) == "uuid" { return FuzzValues.json(values.string([UUID().uuidString], invalid: ["not-a-uuid"])) }
        if (schema["format"] as? String) == "uri" { return FuzzValues.json(values.string(["http://127.0.0.1:9/hook"], invalid: ["ftp://x", "http://", ""])) }
        return FuzzValues.json(values.string(["alice", "family", "conversations", "com.epilogue.plus.monthly", "plus", "1000000001"]))
    }
}

/// A query or path value for `schema`, as text.
func text(_ schema: [String: Any], name: String, _ values: inout FuzzValues) -> String {
    if name == "appUserID" || name == "memberID" { return values.string(Array(ids.prefix(3)), invalid: ids) }
    let value = json(schema, &values)
    // JSON strings lose their quotes in a URL.
    if value.hasPrefix("\""), let decoded = try? JSONSerialization.jsonObject(with: Data(value.utf8), options: [.fragmentsAllowed]) as? String {
        return decoded
    }
    return value
}

func percentEncoded(_ text: String) -> String {
    var allowed = CharacterSet.urlPathAllowed
    allowed.remove(charactersIn: "/?#%&=+")
    return text.addingPercentEncoding(withAllowedCharacters: allowed) ?? text
}

final class Server: @unchecked Sendable {
    var client: (any TestClientProtocol)?
    let ready = DispatchSemaphore(value: 0)
    var statuses: [String: Int] = [:]
    /// A support person's dashboard session (`entitle_session=…`), for the passkey registration.
    var cookie = ""
}
let server = Server()

Task.detached {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("entitle-fuzz-requests-\(getpid())")
    try? FileManager.default.removeItem(at: folder)
    let store = try! await SQLiteLedgerStore.open(path: folder.appendingPathComponent("entitle.sqlite").path)
    let now = Date(timeIntervalSince1970: 1_767_225_600)
    let authority = try! LocalCertificateAuthority.create(now: now)
    let catalog = try! CatalogLoader().load(directory: packageRoot.appendingPathComponent("Examples/Epilogue"))
    let verifier = SignedDataVerifier(
        configuration: VerifierConfiguration(bundleID: "com.epilogue.app", environment: .sandbox, appAppleID: 1234, rootCertificates: [authority.root]),
        now: { now })
    var logger = Logger(label: "fuzz")
    logger.logLevel = .critical
    var configuration = ServerConfiguration(
        http: HTTPConfiguration(host: "127.0.0.1", port: 0), ledger: .store(store), catalog: catalog, verifiers: [verifier], keys: keys,
        analyticsRefreshInterval: nil, now: { now }, logger: logger)
    configuration.webhookInterval = nil
    configuration.passwordCost = .testing
    let application = try! await buildApplication(configuration: configuration)
    let accounts = DashboardAccounts(
        store: store.dashboardAccountStore(), sessions: store.dashboardSessionStore(), hasher: PasswordHasher(cost: .testing), now: { now })
    let (_, token) = try! await accounts.invite(email: "agent@example.com", role: .support, invitedBy: "fuzz")
    try! await application.test(.router) { client in
        let joined = try await client.execute(
            uri: "/dashboard/invitation", method: .post, headers: dashboardHeaders(form: true),
            body: ByteBuffer(string: "token=\(token)&password=a+long+password+for+fuzzing"))
        server.cookie = joined.headers[.setCookie]?.split(separator: ";").first.map(String.init) ?? ""
        server.client = client
        server.ready.signal()
        // Serves until the fuzzer exits the process.
        while true { try await Task.sleep(for: .seconds(3600)) }
    }
}
server.ready.wait()

atexit {
    let lines = server.statuses.sorted { $0.key < $1.key }.map { "  \($0.key): \($0.value)" }
    FileHandle.standardError.write(Data(("statuses:\n" + lines.joined(separator: "\n") + "\n").utf8))
}

/// A dashboard form's or script's headers: from the dashboard's own pages, as the browser says.
func dashboardHeaders(form: Bool, cookie: String? = nil) -> HTTPFields {
    var headers = HTTPFields()
    headers[.contentType] = form ? "application/x-www-form-urlencoded" : "application/json"
    headers[HTTPField.Name("Sec-Fetch-Site")!] = "same-origin"
    if let cookie { headers[.cookie] = cookie }
    return headers
}

func base64URL(_ data: Data) -> String {
    data.base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
}

/// Bytes drawn from `values`: up to `limit`, sometimes wrapped as WebAuthn would send them (authenticator
/// data after a relying party hash and flags, or an attestation object's CBOR map around them).
func bytes(_ values: inout FuzzValues, limit: Int = 300) -> Data {
    var raw = Data((0..<Int(values.byte()) % limit).map { _ in values.byte() })
    if values.bool() {
        // localhost's hash, flags (attested, present), a counter, then the fuzz.
        raw = Data([0x49, 0x96, 0x0d, 0xe5, 0x88, 0x0e, 0x8c, 0x68, 0x74, 0x34, 0x17, 0x0f, 0x64, 0x76, 0x60, 0x5b, 0x8f, 0xe4, 0xae, 0xb9,
                    0xa2, 0x86, 0x32, 0xc7, 0x99, 0x5c, 0xf3, 0xba, 0x83, 0x1d, 0x97, 0x63, values.pick([0x45, 0x41, 0x05, 0xff]), 0, 0, 0, 1]) + raw
    }
    if values.bool() {
        // {"fmt": "none", "attStmt": {}, "authData": raw}
        let length = raw.count
        let head: [UInt8] = length < 24 ? [0x40 | UInt8(length)] : length < 256 ? [0x58, UInt8(length)] : [0x59, UInt8(length >> 8), UInt8(length & 0xFF)]
        raw = Data([0xA3, 0x63, 0x66, 0x6D, 0x74, 0x64, 0x6E, 0x6F, 0x6E, 0x65, 0x67, 0x61, 0x74, 0x74, 0x53, 0x74, 0x6D, 0x74, 0xA0,
                    0x68, 0x61, 0x75, 0x74, 0x68, 0x44, 0x61, 0x74, 0x61] + head) + raw
    }
    return raw
}

/// One of the dashboard's doors with fuzzed values; the answer's status.
func dashboardDoor(_ client: any TestClientProtocol, _ values: inout FuzzValues) async throws -> (request: String, response: TestResponse) {
    func form(_ fields: [(String, String)]) -> ByteBuffer {
        ByteBuffer(string: fields.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&"))
    }
    switch values.byte() % 4 {
    case 0:
        let body = form([
            ("email", values.string(["agent@example.com", "AGENT@example.com"], invalid: ["", "@", "a@b", String(repeating: "x", count: 300), "a\u{0}@b.c"])),
            ("password", values.string(["a long password for fuzzing", "wrong password!!"], invalid: ["", "x", String(repeating: "p", count: 2_000)])),
        ])
        return ("POST /dashboard/login \(String(buffer: body))", try await client.execute(uri: "/dashboard/login", method: .post, headers: dashboardHeaders(form: true), body: body))
    case 1:
        let body = form([
            ("token", values.string(["inv_AAAA"], invalid: ["", "inv_", String(repeating: "t", count: 500)])),
            ("password", values.string(["another long password"], invalid: ["", "short"])), ("name", values.string(["Jo"], invalid: ["", "\u{0}"])),
        ])
        return ("POST /dashboard/invitation \(String(buffer: body))", try await client.execute(uri: "/dashboard/invitation", method: .post, headers: dashboardHeaders(form: true), body: body))
    default:
        // A ceremony: a fresh challenge, answered with fuzzed data (registration as the signed-in person).
        let registering = values.bool()
        let base = registering ? "/dashboard/me/passkeys" : "/dashboard/login/passkey"
        let cookie = registering ? server.cookie : nil
        let options = try await client.execute(uri: base + "/options", method: .post, headers: dashboardHeaders(form: false, cookie: cookie), body: ByteBuffer(string: "{}"))
        let challenge = ((try? JSONSerialization.jsonObject(with: Data(buffer: options.body))) as? [String: Any])?["challenge"] as? String ?? ""
        let type = registering ? "webauthn.create" : "webauthn.get"
        let clientData = values.mutates()
            ? base64URL(bytes(&values))
            : base64URL(Data(#"{"type":"\#(values.string([type], invalid: ["webauthn.get", ""]))","challenge":"\#(challenge)","origin":"\#(values.string(["http://localhost"], invalid: ["https://evil.example", ""]))"}"#.utf8))
        var fields: [(String, String)] = [("id", FuzzValues.json(values.string(["AAECAwQFBgcICQoLDA0ODw"], invalid: ["", String(repeating: "A", count: 2_000)]))), ("clientDataJSON", FuzzValues.json(clientData))]
        if registering {
            fields.append(("attestationObject", FuzzValues.json(base64URL(bytes(&values, limit: 600)))))
        } else {
            fields.append(("authenticatorData", FuzzValues.json(base64URL(bytes(&values)))))
            fields.append(("signature", FuzzValues.json(base64URL(bytes(&values, limit: 80)))))
        }
        let body = ByteBuffer(string: values.object(fields))
        let response = try await client.execute(uri: base, method: .post, headers: dashboardHeaders(form: false, cookie: cookie), body: body)
        return ("POST \(base) \(String(buffer: body))", response)
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ pointer: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let pointer, let client = server.client else { return 0 }
    var values = FuzzValues(Data(bytes: pointer, count: count))
    if values.byte() % 5 == 0 {
        let data = Data(bytes: pointer, count: count)
        let answered = runBlocking { () async -> (request: String, response: TestResponse)? in
            var door = FuzzValues(data)
            _ = door.byte()
            return try? await dashboardDoor(client, &door)
        }
        guard let (request, response) = answered else { return 0 }
        server.statuses["dashboard \(response.status.code)", default: 0] += 1
        if response.status.code >= 500, response.status.code != 503 { fatalError("\(request) answered \(response.status.code): \(String(buffer: response.body))") }
        return 0
    }
    let requests = 1 + Int(values.byte() % 3)
    for _ in 0..<requests {
        let operation = values.pick(operations)
        var path = operation.path
        var query: [String] = []
        var headers = HTTPFields()
        for parameter in operation.parameters {
            guard let name = parameter["name"] as? String, let place = parameter["in"] as? String else { continue }
            let schema = parameter["schema"] as? [String: Any] ?? [:]
            switch place {
            case "path": path = path.replacingOccurrences(of: "{\(name)}", with: percentEncoded(text(schema, name: name, &values)))
            case "query" where values.bool(): query.append(name + "=" + percentEncoded(text(schema, name: name, &values)))
            case "header" where values.mutates(): if let field = HTTPField.Name(name) { headers[field] = values.string(["com.epilogue.app"], invalid: ["com.other", ""]) }
            default: break
            }
        }
        let key: String? = values.mutates() ? values.pick([nil, keys.publicKey(for: "alice"), "sk_wrong", "ak_x", ""]) : secretKey
        if let key { headers[.authorization] = "Bearer \(key)" }
        var body = ByteBuffer()
        if let schema = operation.body {
            headers[.contentType] = "application/json"
            body = ByteBuffer(string: json(schema, &values))
        }
        let uri = path + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let request = "\(operation.method) \(uri) \(String(buffer: body))"
        let (method, fields, payload) = (operation.method, headers, body)
        let response: TestResponse? = runBlocking {
            try? await client.execute(uri: uri, method: method, headers: fields, body: payload)
        }
        guard let response else { continue }
        let code = (try? JSONSerialization.jsonObject(with: Data(buffer: response.body)) as? [String: Any])
            .flatMap { $0["error"] as? [String: Any] }?["code"] as? String
        server.statuses["\(response.status.code) \(code ?? "-")", default: 0] += 1
        // Apple's servers are not configured here: their codes can't be caused by the request's values.
        let apple = code == "appStore.unavailable" || code == "appStore.refused"
        if response.status.code >= 500, !apple {
            fatalError("\(request) answered \(response.status.code): \(String(buffer: response.body))")
        }
    }
    return 0
}

runFuzzer(fuzz)
