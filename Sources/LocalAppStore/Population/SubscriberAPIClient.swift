import AsyncHTTPClient
import EntitleWire
import Foundation
import NIOCore
import NIOHTTP1

/// What an app does against its Entitle server: start the app-managed trial, submit a StoreKit
/// transaction, read the subscriber. Authenticated with a key.
public struct SubscriberAPIClient: Sendable {
    private let baseURL: String
    private let key: String
    private let client: HTTPClient

    public init(baseURL: String, key: String, client: HTTPClient) {
        self.baseURL = baseURL
        self.key = key
        self.client = client
    }

    public func startTrial(_ appUserID: String) async throws(LocalStoreError) -> SubscriberResponse {
        try await send(.POST, "/v1/subscribers/\(appUserID)/trial", body: nil)
    }

    public func submit(_ appUserID: String, signedTransaction: String) async throws(LocalStoreError) -> SubscriberResponse {
        try await send(.POST, "/v1/subscribers/\(appUserID)/transactions", body: try Self.encode(SubmitTransactionRequest(signedTransaction: signedTransaction)))
    }

    public func subscriber(_ appUserID: String) async throws(LocalStoreError) -> SubscriberResponse {
        try await send(.GET, "/v1/subscribers/\(appUserID)", body: nil)
    }

    /// Whether the server answers `/health`.
    public func isHealthy() async -> Bool {
        guard let response = try? await client.execute(HTTPClientRequest(url: baseURL + "/health"), timeout: .seconds(2)) else { return false }
        _ = try? await response.body.collect(upTo: 1024)
        return response.status == .ok
    }

    private func send(_ method: HTTPMethod, _ path: String, body: Data?) async throws(LocalStoreError) -> SubscriberResponse {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = method
        request.headers.add(name: "Authorization", value: "Bearer \(key)")
        if let body {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: body))
        }
        let status: UInt
        let bytes: ByteBuffer
        do {
            let response = try await client.execute(request, timeout: .seconds(30))
            status = response.status.code
            bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
        } catch {
            throw LocalStoreError(.deliveryFailed, "\(method) \(path) failed: \(error)")
        }
        guard (200..<300).contains(status) else {
            throw LocalStoreError(.deliveryFailed, "\(method) \(path) answered \(status): \(String(buffer: bytes))")
        }
        do {
            return try WireJSON.decoder.decode(SubscriberResponse.self, from: Data(bytes.readableBytesView))
        } catch {
            throw LocalStoreError(.deliveryFailed, "\(method) \(path) answered a body that is not a subscriber: \(error)")
        }
    }

    private static func encode<T: Encodable>(_ value: T) throws(LocalStoreError) -> Data {
        do {
            return try WireJSON.encoder.encode(value)
        } catch {
            throw LocalStoreError(.signing, "the request does not encode: \(error)")
        }
    }
}
