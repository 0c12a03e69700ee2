import AppStoreServerAPI
import AsyncHTTPClient
import EntitleAPI
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// HTTP for the tests that talk to a server (a child `entitle serve`, a test server) and are not about
/// the client: ``AsyncHTTPClientTransport`` on a client that follows no redirect, a `URLRequest` in and
/// what `URLSession.data(for:)` returns out. FoundationNetworking's `URLSession` keeps a core busy while
/// a request on a new connection waits for its answer (2.5 s of CPU over a 3 s wait, measured here),
/// which a suite of servers on two cores can't spare. EntitleKit's tests still go through `URLSession`:
/// it is their subject.
public enum TestHTTP {
    private static let transport = AsyncHTTPClientTransport(client: HTTPClient(
        eventLoopGroupProvider: .singleton, configuration: HTTPClient.Configuration(redirectConfiguration: .disallow)))

    /// Sends `request` (its method, headers, body and timeout) and returns the answer's body and response.
    public static func answer(for request: URLRequest) async throws -> (Data, URLResponse) {
        guard let url = request.url?.absoluteURL, var origin = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            throw URLError(.badURL)
        }
        let path = (origin.percentEncodedPath.isEmpty ? "/" : origin.percentEncodedPath) + (origin.percentEncodedQuery.map { "?\($0)" } ?? "")
        origin.percentEncodedPath = ""
        origin.percentEncodedQuery = nil
        guard let base = origin.url else { throw URLError(.badURL) }
        let response = try await transport.send(
            APIRequest(method: request.httpMethod ?? "GET", path: path, headers: request.allHTTPHeaderFields ?? [:], body: request.httpBody),
            to: base, timeout: .seconds(max(1, Int(request.timeoutInterval))))
        guard let http = HTTPURLResponse(url: url, statusCode: response.status, httpVersion: "HTTP/1.1", headerFields: response.headers) else {
            throw URLError(.badServerResponse)
        }
        return (response.body, http)
    }

    /// ``answer(for:)`` for a GET of `url`.
    public static func answer(from url: URL) async throws -> (Data, URLResponse) {
        try await answer(for: URLRequest(url: url))
    }
}
