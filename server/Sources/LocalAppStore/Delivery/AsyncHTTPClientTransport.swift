import AsyncHTTPClient
import EntitleAPI
import Foundation
import NIOCore
import NIOHTTP1

/// The API client's transport on AsyncHTTPClient, for the local App Store's simulated apps (many
/// calls on pooled connections, beside the server in one process).
public struct AsyncHTTPClientTransport: HTTPTransport {
    let client: HTTPClient

    public init(client: HTTPClient) {
        self.client = client
    }

    public func send(_ request: APIRequest, to baseURL: URL, timeout: Duration) async throws(APIClientError) -> APIResponse {
        var outgoing = HTTPClientRequest(url: request.url(on: baseURL))
        outgoing.method = HTTPMethod(rawValue: request.method)
        for (name, value) in request.headers { outgoing.headers.add(name: name, value: value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        do {
            let response = try await client.execute(outgoing, timeout: .seconds(timeout.components.seconds))
            let bytes = try await response.body.collect(upTo: 4 * 1024 * 1024)
            return APIResponse(
                status: Int(response.status.code), body: Data(bytes.readableBytesView),
                headers: Dictionary(response.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
        } catch {
            throw APIClientError(.network, "\(request.method) \(request.path) failed: \(error)", underlying: error)
        }
    }
}
