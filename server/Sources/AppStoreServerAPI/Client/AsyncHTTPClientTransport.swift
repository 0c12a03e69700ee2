import AsyncHTTPClient
import EntitleAPI
import Foundation
import NIOCore
import NIOHTTP1

/// An API client's transport on AsyncHTTPClient (NIO's event loops, pooled connections): the server's
/// (Apple's App Store Server API) and the command line's (the running server's API), and the local App
/// Store's simulated apps. Not `URLSession`: on Linux, FoundationNetworking keeps a core busy while a
/// request on a new connection waits for its answer.
public struct AsyncHTTPClientTransport: HTTPTransport {
    let client: HTTPClient

    /// Sends with `client`: the process's shared one unless given.
    public init(client: HTTPClient = .shared) {
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
