import AppStoreVerification
import EntitleStorage
import Foundation

/// Why the service refused a request: a stable code, a message for the caller, and whether a retry
/// may succeed. Verification and storage failures keep their own codes.
public struct ServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        public static let invalidRequest = Code(rawValue: "request.invalid")
        public static let bodyTooLarge = Code(rawValue: "request.bodyTooLarge")
        public static let notFound = Code(rawValue: "request.notFound")
        public static let missingAPIKey = Code(rawValue: "auth.missingKey")
        public static let invalidAPIKey = Code(rawValue: "auth.invalidKey")
        public static let forbidden = Code(rawValue: "auth.forbidden")
        public static let invalidAppUserID = Code(rawValue: "subscriber.invalidAppUserID")
        public static let purchaseOwnedByAnotherSubscriber = Code(rawValue: "purchase.ownedByAnotherSubscriber")
        public static let unknownFeature = Code(rawValue: "usage.unknownFeature")
        public static let notMetered = Code(rawValue: "usage.notMetered")
        public static let quotaExhausted = Code(rawValue: "usage.quotaExhausted")
    }

    public var code: String
    public var message: String
    public var isRetryable: Bool
    /// The HTTP status the API answers with.
    public var status: Int

    public init(_ code: Code, _ message: String, status: Int) {
        self.code = code.rawValue
        self.message = message
        self.isRetryable = false
        self.status = status
    }

    /// A verification failure: the client's data is refused (400), unless the failure is temporary
    /// (503, so Apple retries a notification).
    public init(_ error: VerificationError) {
        code = error.code.rawValue
        message = error.message
        isRetryable = error.isRetryable
        status = error.isRetryable ? 503 : 400
    }

    /// A storage failure: never the client's fault (503 when retrying may help, else 500).
    public init(_ error: StorageError) {
        code = error.code.rawValue
        message = "the ledger is unavailable"
        isRetryable = error.isRetryable
        status = error.isRetryable ? 503 : 500
    }

    public var description: String { "\(code): \(message)" }

    public static func == (lhs: ServiceError, rhs: ServiceError) -> Bool { lhs.code == rhs.code }
    public func hash(into hasher: inout Hasher) { hasher.combine(code) }
}
