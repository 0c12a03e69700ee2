import Foundation

/// Why a call to an Entitle server failed: a stable code, a message, and for refusals the server's
/// own error code and HTTP status. Equality is by code.
public struct APIClientError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The server could not be reached, or the connection failed.
        public static let network = Code(rawValue: "client.network")
        /// The server answered with an error (``APIClientError/status``, ``APIClientError/serverCode``).
        public static let refused = Code(rawValue: "client.refused")
        /// The server's answer is not what the API documents.
        public static let unexpectedResponse = Code(rawValue: "client.unexpectedResponse")
        /// The request could not be built (an unencodable body, a bad path).
        public static let invalidRequest = Code(rawValue: "client.invalidRequest")
    }

    public var code: Code
    public var message: String
    /// The HTTP status of a refusal.
    public var status: Int?
    /// The server's stable error code of a refusal (`auth.invalidKey`, `usage.quotaExhausted`, …).
    public var serverCode: String?
    public var underlying: (any Error)?

    public init(_ code: Code, _ message: String, status: Int? = nil, serverCode: String? = nil, underlying: (any Error)? = nil) {
        self.code = code
        self.message = message
        self.status = status
        self.serverCode = serverCode
        self.underlying = underlying
    }

    /// Whether the same call may succeed later: a failed connection, a 5xx, or 429.
    public var isRetryable: Bool {
        switch code {
        case .network: true
        case .refused: status.map { $0 >= 500 || $0 == 429 } ?? false
        default: false
        }
    }

    public var description: String { "\(serverCode ?? code.rawValue): \(message)" }

    public static func == (lhs: APIClientError, rhs: APIClientError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
