import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The transport apps use: Foundation's `URLSession` (FoundationNetworking on Linux).
public struct URLSessionTransport: HTTPTransport {
    let session: URLSession

    public init(session: URLSession = .shared) {
        self.session = session
    }

    public func send(_ request: APIRequest, to baseURL: URL, timeout: Duration) async throws(APIClientError) -> APIResponse {
        guard let url = URL(string: request.url(on: baseURL)) else {
            throw APIClientError(.invalidRequest, "\(request.path) is not a path on \(baseURL)")
        }
        var urlRequest = URLRequest(url: url, timeoutInterval: Double(timeout.components.seconds))
        urlRequest.httpMethod = request.method
        for (name, value) in request.headers { urlRequest.setValue(value, forHTTPHeaderField: name) }
        urlRequest.httpBody = request.body
        do {
            let (data, response) = try await session.data(for: urlRequest)
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name] = value }
            }
            return APIResponse(status: http?.statusCode ?? 0, body: data, headers: headers)
        } catch {
            throw APIClientError(.network, "\(request.method) \(request.path) failed: \(error.localizedDescription)", underlying: error)
        }
    }
}
