import AppStoreModels
import EntitleCore
import EntitleServer
import EntitleStorage
import EntitleTestSupport
import EntitleWire
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import NIOFoundationEssentialsCompat
import Testing

/// A JSON value, decoded strictly (a boolean is never a number), for checking bodies against schemas.
indirect enum JSONValue: Decodable, Sendable, CustomStringConvertible {
    case null, bool(Bool), number(Double), string(String), array([JSONValue]), object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null }
        else if let value = try? container.decode(Bool.self) { self = .bool(value) }
        else if let value = try? container.decode(Double.self) { self = .number(value) }
        else if let value = try? container.decode(String.self) { self = .string(value) }
        else if let value = try? container.decode([JSONValue].self) { self = .array(value) }
        else { self = .object(try container.decode([String: JSONValue].self)) }
    }

    static func parse(_ data: Data) throws -> JSONValue { try JSONDecoder().decode(JSONValue.self, from: data) }

    subscript(key: String) -> JSONValue? { if case .object(let object) = self { object[key] } else { nil } }
    var string: String? { if case .string(let value) = self { value } else { nil } }
    var objectValue: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    var arrayValue: [JSONValue]? { if case .array(let value) = self { value } else { nil } }

    var description: String {
        switch self {
        case .null: "null"
        case .bool(let value): "\(value)"
        case .number(let value): value == value.rounded() ? "\(Int(value))" : "\(value)"
        case .string(let value): value
        case .array(let value): "\(value)"
        case .object(let value): "\(value)"
        }
    }
}

/// The server against its OpenAPI document (docs/openapi.json): every documented operation is called
/// on the live server; the status must be one the document lists, and JSON bodies must match the
/// documented schema.
@Suite("OpenAPI conformance")
struct OpenAPIConformanceTests {
    static let document: JSONValue = try! JSONValue.parse(Data(contentsOf: Fixtures.repository.appendingPathComponent("docs/openapi.json")))

    struct Operation: Sendable, CustomTestStringConvertible {
        var method: String
        var path: String
        var operationID: String
        var testDescription: String { "\(method.uppercased()) \(path)" }
    }

    static let operations: [Operation] = {
        (document["paths"]?.objectValue ?? [:]).flatMap { path, item in
            (item.objectValue ?? [:]).compactMap { method, value -> Operation? in
                guard let id = value["operationId"]?.string else { return nil }
                return Operation(method: method, path: path, operationID: id)
            }
        }.sorted { ($0.path, $0.method) < ($1.path, $1.method) }
    }()

    /// A request body that is valid for each operation that takes one.
    static func body(for operationID: String, harness: ServerHarness) -> ByteBuffer {
        switch operationID {
        case "receiveAppStoreNotification":
            let transaction = harness.apple.subscription("com.screentimerewards.family.monthly", original: "oa-1", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            return ServerHarness.json(AppStoreNotificationRequest(signedPayload: harness.notification(.subscribed, transaction: transaction)))
        case "submitTransaction":
            let transaction = harness.apple.subscription("com.screentimerewards.family.monthly", original: "oa-2", purchase: ReferenceTime.start, expires: ReferenceTime.day(31))
            return ServerHarness.json(SubmitTransactionRequest(signedTransaction: harness.pki.sign(transaction)))
        case "getRetentionMessage":
            return ServerHarness.json(RealtimeRequestBody(signedPayload: harness.pki.sign(DecodedRealtimeRequestBody(
                originalTransactionId: "oa-1", productId: "com.screentimerewards.family.monthly", userLocale: "en-US", requestIdentifier: UUID(),
                signedDate: ReferenceTime.start, environment: .sandbox))))
        case "logIn": return ServerHarness.json(AliasRequest(appUserID: "oa-known"))
        case "createKey": return ServerHarness.json(CreateKeyRequest(kind: "app", name: "conformance"))
        case "setSubscriberAttributes": return ServerHarness.json(SetAttributesRequest(["timeZone": "Europe/Berlin"]))
        case "registerAppAccountToken": return ServerHarness.json(AppAccountTokenRequest(appAccountToken: UUID()))
        case "reportPendingPurchase": return ServerHarness.json(PendingPurchaseRequest(productID: "com.screentimerewards.family.monthly"))
        case "recordUsage": return ServerHarness.json(RecordUsageRequest(feature: "conversations", idempotencyKey: "oa"))
        case "grantEntitlement": return ServerHarness.json(GrantRequest(entitlementID: "family"))
        case "addOverride": return ServerHarness.json(OverrideRequest(reason: "conformance"))
        case "setOpenAccess": return ByteBuffer(string: #"{"endsAt":"2026-02-01T00:00:00Z","reason":"conformance"}"#)
        case "extendRenewal": return ServerHarness.json(RenewalExtensionRequest(days: 7, reasonCode: 1))
        case "extendAppTrial": return ServerHarness.json(AppTrialExtensionRequest(days: 7, reason: "conformance"))
        case "createWebhookEndpoint": return ServerHarness.json(CreateWebhookEndpointRequest(url: "http://127.0.0.1:9/hooks", eventTypes: ["renewal"]))
        case "createExperiment":
            return ServerHarness.json(CreateExperimentRequest(
                id: "oa-experiment", variants: [ExperimentVariant(id: "a", offeringID: "default"), ExperimentVariant(id: "b", offeringID: "default")]))
        case "registerItem": return ServerHarness.json(RegisterItemRequest(limit: "childDevices", id: "ipad-1", name: "iPad"))
        case "renameItem": return ServerHarness.json(RenameItemRequest(name: "Mia's iPad"))
        case "rollOutExperiment": return ServerHarness.json(RollOutRequest(variantID: "a"))
        case "startImport": return ServerHarness.json(ImportJobRequest(format: "csv", file: "app_user_id,transaction_id\noa-import,1000\n"))
        case "importCustomers": return ServerHarness.json(ImportCustomersRequest(customers: [ImportCustomer(appUserID: "oa-import", transactionID: "1000")]))
        case "signPromotionalOffer": return ServerHarness.json(PromotionalOfferRequest(productID: "com.screentimerewards.family.monthly", offerID: "none"))
        default: return ByteBuffer()
        }
    }

    /// Each path parameter, and the value the suite fills it with.
    static let pathValues: [(String, String)] = [
        ("{appUserID}", "oa-user"), ("{feature}", "challenges.create"), ("{grantID}", "g-1"), ("{overrideID}", "o-1"),
        ("{originalTransactionID}", "oa-2"), ("{memberID}", "oa-member"), ("{chart}", "monthly"), ("{keyID}", "key_unknown"),
        ("{productID}", "com.screentimerewards.family.monthly"), ("{orderID}", "MORDER0001"), ("{endpointID}", "we_unknown"), ("{deliveryID}", "1"),
        ("{jobID}", "job_unknown"), ("{experimentID}", "exp_unknown"), ("{limit}", "childDevices"), ("{itemID}", "ipad-1"), ("{transactionID}", "1000"),
    ]

    static func concrete(_ path: String) -> String {
        pathValues.reduce(path) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    @Test("every operation a secret key reaches names the scope it needs, as the server's rule says (KeyScopeRule)")
    func scopes() throws {
        for operation in Self.operations {
            let spec = Self.document["paths"]?[operation.path]?[operation.method]
            let security = spec?["security"]?.arrayValue
            guard security == nil || security?.contains(where: { $0["secretKey"] != nil }) == true else { continue }
            let method = try #require(HTTPRequest.Method(operation.method.uppercased()))
            #expect(spec?["x-entitle-scope"]?.string == KeyScopeRule.required(method: method, route: operation.path).rawValue, "\(operation.testDescription)")
        }
    }

    @Test("the document describes the 75 operations the server serves")
    func coverage() {
        #expect(Self.operations.count == 75)
    }

    @Test("every documented operation answers a documented status with a body matching its schema", arguments: operations)
    func operation(_ operation: Operation) async throws {
        try await ServerHarness.run { harness, client in
            let spec = Self.document["paths"]?[operation.path]?[operation.method]
            let responses = spec?["responses"]?.objectValue ?? [:]
            let security = spec?["security"]?.arrayValue
            let publicAllowed = security?.contains { $0["subscriberKey"] != nil } ?? true
            let key: String? = security?.isEmpty == true ? nil : (publicAllowed ? harness.publicKey("oa-user") : ServerHarness.secretKey)
            let method = try #require(HTTPRequest.Method(operation.method.uppercased()))

            var headers = HTTPFields()
            headers[.contentType] = "application/json"
            if let key { headers[.authorization] = "Bearer \(key)" }
            let response = try await client.execute(
                uri: Self.concrete(operation.path), method: method, headers: headers, body: Self.body(for: operation.operationID, harness: harness))
            let status = String(response.status.code)
            #expect(responses[status] != nil, "\(status) is not documented: \(String(buffer: response.body))")
            if let schema = responses[status]?["content"]?["application/json"]?["schema"] {
                let body = try JSONValue.parse(Data(buffer: response.body))
                let problems = SchemaCheck(document: Self.document).problems(body, schema, at: "$")
                #expect(problems.isEmpty, "\(problems)")
            }

            // Without a key, a secured operation answers the documented 401.
            if key != nil {
                var bare = HTTPFields()
                bare[.contentType] = "application/json"
                let unauthenticated = try await client.execute(
                    uri: Self.concrete(operation.path), method: method, headers: bare, body: Self.body(for: operation.operationID, harness: harness))
                #expect(unauthenticated.status == .unauthorized)
                #expect(responses["401"] != nil)
            }
        }
    }
}

/// A small JSON Schema checker for the subset the document uses: type (with null), required,
/// properties, additionalProperties, items, enum, const, oneOf and $ref.
struct SchemaCheck {
    let document: JSONValue

    func problems(_ value: JSONValue, _ schema: JSONValue, at path: String) -> [String] {
        if let ref = schema["$ref"]?.string {
            let name = String(ref.split(separator: "/").last!)
            guard let resolved = document["components"]?["schemas"]?[name] else { return ["\(path): unknown \(ref)"] }
            return problems(value, resolved, at: path)
        }
        if let options = schema["oneOf"]?.arrayValue {
            return options.contains { problems(value, $0, at: path).isEmpty } ? [] : ["\(path): matches none of oneOf"]
        }
        if let constant = schema["const"], constant.description != value.description { return ["\(path): expected \(constant)"] }
        if let allowed = schema["enum"]?.arrayValue, !allowed.contains(where: { $0.description == value.description }) {
            return ["\(path): \(value) is not one of \(allowed)"]
        }
        let types = schema["type"].map { $0.string.map { [$0] } ?? ($0.arrayValue?.compactMap(\.string) ?? []) } ?? []
        if !types.isEmpty && !types.contains(where: { Self.matches(value, type: $0) }) {
            return ["\(path): \(value) is not \(types)"]
        }
        var found: [String] = []
        if case .object(let object) = value {
            for name in schema["required"]?.arrayValue?.compactMap(\.string) ?? [] where object[name] == nil {
                found.append("\(path).\(name): required")
            }
            let properties = schema["properties"]?.objectValue ?? [:]
            for (name, child) in object {
                if let propertySchema = properties[name] {
                    found += problems(child, propertySchema, at: "\(path).\(name)")
                } else if let additional = schema["additionalProperties"], additional.objectValue != nil {
                    found += problems(child, additional, at: "\(path).\(name)")
                }
            }
        }
        if case .array(let array) = value, let items = schema["items"] {
            for (index, item) in array.enumerated() { found += problems(item, items, at: "\(path)[\(index)]") }
        }
        return found
    }

    static func matches(_ value: JSONValue, type: String) -> Bool {
        switch (type, value) {
        case ("null", .null), ("boolean", .bool), ("string", .string), ("array", .array), ("object", .object), ("number", .number): true
        case ("integer", .number(let number)): number == number.rounded()
        default: false
        }
    }
}
