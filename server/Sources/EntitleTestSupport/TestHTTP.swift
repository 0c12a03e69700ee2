import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP for the tests that talk to a server (a child `entitle serve`, a test server) and are not about
/// the client: AsyncHTTPClient on NIO's event loops, redirects not followed, a `URLRequest` in and what
/// `URLSession.data(for:)` returns out. FoundationNetworking's `URLSession` keeps a core busy while a
/// request on a new connection waits for its answer (2.5 s of CPU over a 3 s wait, measured here), which
/// a suite of servers on two cores can't spare. EntitleKit's tests still go through `URLSession`: it is
/// their subject.
public enum TestHTTP {
    private static let client = HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow))

    /// Sends `request` (its method, headers, body and timeout) and returns the answer's body and response.
    public static func answer(for request: URLRequest) async throws -> (Data, URLResponse) {
        guard let url = request.url else { throw URLError(.badURL) }
        var outgoing = HTTPClientRequest(url: url.absoluteString)
        outgoing.method = HTTPMethod(rawValue: request.httpMethod ?? "GET")
        for (name, value) in request.allHTTPHeaderFields ?? [:] { outgoing.headers.add(name: name, value: value) }
        if let body = request.httpBody { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: .seconds(Int64(max(1, request.timeoutInterval))))
        let body = try await response.body.collect(upTo: 64 << 20)
        var fields: [String: String] = [:]
        for (name, value) in response.headers { fields[name] = fields[name].map { "\($0), \(value)" } ?? value }
        guard let http = HTTPURLResponse(url: url, statusCode: Int(response.status.code), httpVersion: "HTTP/1.1", headerFields: fields) else {
            throw URLError(.badServerResponse)
        }
        return (Data(body.readableBytesView), http)
    }

    /// ``answer(for:)`` for a GET of `url`.
    public static func answer(from url: URL) async throws -> (Data, URLResponse) {
        try await answer(for: URLRequest(url: url))
    }
}
