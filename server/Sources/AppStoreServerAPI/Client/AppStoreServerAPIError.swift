import AppStoreVerification
import Foundation

/// Why an App Store Server API call failed: Apple's error code (``code``, e.g. 4040010 transaction not
/// found), an HTTP failure, or signed data that did not verify. Never carries the token or a key.
public struct AppStoreServerAPIError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Kind: String, Hashable, Sendable {
        /// Apple answered with an error code.
        case apple
        /// Apple rejected the token (401).
        case unauthorized
        /// Too many requests (429), after the retries allowed.
        case rateLimited
        /// The server can't be reached, or answered 5xx, after the retries allowed.
        case unavailable
        /// The answer is not what the endpoint returns.
        case unexpectedResponse
        /// Signed data in the answer did not verify.
        case verification
        /// The request is outside what Apple accepts; refused before it was sent.
        case invalidRequest
    }

    public var kind: Kind
    /// Apple's numeric error code, when it sent one.
    public var code: Int?
    public var status: Int?
    public var message: String

    public init(_ kind: Kind, code: Int? = nil, status: Int? = nil, _ message: String) {
        self.kind = kind
        self.code = code
        self.status = status
        self.message = message
    }

    /// Apple's codes that say trying the same request again may succeed.
    public static let retryableCodes: Set<Int> = [4040002, 4040004, 4040006, 5000001, 4290000]
    public static let transactionIdNotFound = 4040010
    public static let invalidTransactionId = 4000006
    public static let originalTransactionIdNotFound = 4040005
    public static let rateLimitExceeded = 4290000

    public var isRetryable: Bool {
        switch kind {
        case .rateLimited, .unavailable: true
        case .apple: code.map(Self.retryableCodes.contains) ?? false
        default: false
        }
    }

    public var description: String { "\(kind.rawValue)\(code.map { " \($0)" } ?? ""): \(message)" }
}
