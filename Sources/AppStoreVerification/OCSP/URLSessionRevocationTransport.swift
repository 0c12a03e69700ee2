import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Posts OCSP requests over HTTP with URLSession (RFC 6960 appendix A).
public struct URLSessionRevocationTransport: RevocationTransport {
    public struct HTTPStatusError: Error, CustomStringConvertible {
        public var status: Int
        public var description: String { "the OCSP responder answered HTTP \(status)" }
    }

    private let session: URLSession
    private let timeout: TimeInterval

    public init(session: URLSession = .shared, timeout: TimeInterval = 5) {
        self.session = session
        self.timeout = timeout
    }

    public func send(request: [UInt8], to uri: String) async throws -> [UInt8] {
        guard let url = URL(string: uri) else { throw URLError(.badURL) }
        var urlRequest = URLRequest(url: url, timeoutInterval: timeout)
        urlRequest.httpMethod = "POST"
        urlRequest.setValue("application/ocsp-request", forHTTPHeaderField: "Content-Type")
        urlRequest.httpBody = Data(request)
        let (data, response) = try await session.data(for: urlRequest)
        let status = (response as? HTTPURLResponse)?.statusCode ?? 0
        guard status == 200 else { throw HTTPStatusError(status: status) }
        return Array(data)
    }
}
