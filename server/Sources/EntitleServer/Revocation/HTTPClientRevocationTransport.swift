import AppStoreVerification
import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// Posts OCSP requests over HTTP (RFC 6960 appendix A) with AsyncHTTPClient, the client the server
/// sends its webhooks with.
///
/// The whole exchange, the answer's body included, ends within `timeout`; an answer other than 200, or
/// larger than `maximumResponseBytes`, is a failure. A cancelled check ends at once: AsyncHTTPClient
/// cancels the request and closes its connection.
public struct HTTPClientRevocationTransport: RevocationTransport {
    /// Why an OCSP exchange failed; ``RevocationChecking`` reports it as a retryable
    /// `revocationCheckUnavailable`.
    public struct Failure: Error, CustomStringConvertible, Equatable {
        public enum Reason: Equatable, Sendable {
            /// The responder answered with this HTTP status rather than 200.
            case status(Int)
            /// No whole answer within the timeout.
            case timedOut
            /// The answer's body was larger than the limit.
            case tooLarge
        }

        public var reason: Reason
        public var timeout: Duration
        public var maximumResponseBytes: Int

        public var description: String {
            switch reason {
            case .status(let status): "the OCSP responder answered HTTP \(status)"
            case .timedOut: "the OCSP responder did not answer within \(timeout)"
            case .tooLarge: "the OCSP responder's answer is larger than \(maximumResponseBytes) bytes"
            }
        }
    }

    let client: HTTPClient
    let timeout: Duration
    let maximumResponseBytes: Int

    /// - Parameters:
    ///   - client: the HTTP client; AsyncHTTPClient's shared one unless given.
    ///   - timeout: how long one exchange may take, from connecting to the answer's last byte.
    ///   - maximumResponseBytes: the largest answer read (a responder's answer for one certificate is
    ///     a few hundred bytes to a few kilobytes).
    public init(client: HTTPClient = .shared, timeout: Duration = .seconds(5), maximumResponseBytes: Int = 64 * 1024) {
        self.client = client
        self.timeout = timeout
        self.maximumResponseBytes = maximumResponseBytes
    }

    public func send(request: [UInt8], to uri: String) async throws -> [UInt8] {
        let (client, timeout, limit) = (client, timeout, maximumResponseBytes)
        return try await withThrowingTaskGroup(of: [UInt8]?.self) { group in
            group.addTask {
                var http = HTTPClientRequest(url: uri)
                http.method = .POST
                http.headers.add(name: "Content-Type", value: "application/ocsp-request")
                http.headers.add(name: "Accept", value: "application/ocsp-response")
                http.body = .bytes(request)
                let response: HTTPClientResponse
                do {
                    response = try await client.execute(http, timeout: TimeAmount(timeout))
                } catch let error as HTTPClientError where [.deadlineExceeded, .readTimeout].contains(error) {
                    // The execute's own deadline can end first, on a loaded machine: the same timeout.
                    throw Failure(reason: .timedOut, timeout: timeout, maximumResponseBytes: limit)
                }
                guard response.status == .ok else { throw Failure(reason: .status(Int(response.status.code)), timeout: timeout, maximumResponseBytes: limit) }
                do {
                    return Array(buffer: try await response.body.collect(upTo: limit))
                } catch is NIOTooManyBytesError {
                    throw Failure(reason: .tooLarge, timeout: timeout, maximumResponseBytes: limit)
                }
            }
            // The execute's deadline ends at the answer's head; this one holds for the body too.
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let answer = try await group.next() ?? nil else {
                throw Failure(reason: .timedOut, timeout: timeout, maximumResponseBytes: limit)
            }
            return answer
        }
    }
}
