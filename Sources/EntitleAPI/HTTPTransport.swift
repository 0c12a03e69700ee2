import Foundation

/// One HTTP exchange with an Entitle server, as the API client sees it.
public struct APIRequest: Sendable {
    public var method: String
    /// The path and query, starting with `/`, already percent-encoded.
    public var path: String
    public var headers: [String: String]
    public var body: Data?

    public init(method: String, path: String, headers: [String: String] = [:], body: Data? = nil) {
        self.method = method
        self.path = path
        self.headers = headers
        self.body = body
    }

    /// The request's absolute URL on the server at `baseURL` (which may end in `/`).
    public func url(on baseURL: URL) -> String {
        let base = baseURL.absoluteString
        return (base.hasSuffix("/") ? String(base.dropLast()) : base) + path
    }
}

/// A server's answer: its status, headers (names lowercased) and body.
public struct APIResponse: Sendable {
    public var status: Int
    public var body: Data
    public var headers: [String: String]

    public init(status: Int, body: Data, headers: [String: String] = [:]) {
        self.status = status
        self.body = body
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
    }
}

/// How the API client reaches the server: `URLSession` in apps (``URLSessionTransport``), any other
/// HTTP client elsewhere. A transport reports a failed connection as `client.network`; any answer,
/// whatever its status, is a response.
public protocol HTTPTransport: Sendable {
    func send(_ request: APIRequest, to baseURL: URL, timeout: Duration) async throws(APIClientError) -> APIResponse
}
