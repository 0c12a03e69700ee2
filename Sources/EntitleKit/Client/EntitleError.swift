import Foundation

/// Why EntitleKit could not do what the app asked: a stable code, a message for the developer, one for
/// the user, and whether trying again may help.
public struct EntitleError: Error, Hashable, Sendable, CustomStringConvertible {
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The server can't be reached (offline, a timeout).
        public static let network = Code(rawValue: "network")
        /// The server refused the request (its code is in the message).
        public static let refused = Code(rawValue: "refused")
        /// Nothing is cached, or what is cached may no longer be trusted, and the server can't be reached.
        public static let noTrustedCustomerInfo = Code(rawValue: "customerInfo.unavailable")
        /// The server's answer was not signed with the configured key.
        public static let unsignedAnswer = Code(rawValue: "customerInfo.unsigned")
        /// The request doesn't make sense (logging in while anonymous is required, an empty ID).
        public static let invalidRequest = Code(rawValue: "request.invalid")
        /// The App Store's own interface could not be shown (the manage-subscriptions sheet).
        public static let storeUnavailable = Code(rawValue: "store.unavailable")
    }

    public var code: Code
    public var message: String
    /// The server's own code when it refused (`auth.logInTokenRequired`, `usage.quotaExhausted`, …).
    /// The server's code when the server refused (`usage.quotaExhausted`, `auth.keyOfAnotherApp`…).
    public var serverCode: String?
    /// The HTTP status the server refused with.
    public var status: Int?

    public init(_ code: Code, _ message: String, serverCode: String? = nil, status: Int? = nil) {
        self.code = code
        self.message = message
        self.serverCode = serverCode
        self.status = status
    }

    /// Whether trying again later may succeed: the network, or the server busy or failing (429, 5xx);
    /// not a refusal of the request itself.
    public var isRetryable: Bool { code == .network || status.map { $0 == 429 || $0 >= 500 } ?? false }

    /// What to tell the user.
    public var userMessage: String {
        switch code {
        case .network, .noTrustedCustomerInfo: "You appear to be offline. Check your connection and try again."
        default: "Something went wrong. Please try again later."
        }
    }

    public var description: String { "\(serverCode ?? code.rawValue): \(message)" }
}
