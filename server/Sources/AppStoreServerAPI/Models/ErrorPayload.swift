import Foundation

/// The body of an App Store Server API error.
public struct ErrorPayload: Codable, Hashable, Sendable {
    public var errorCode: Int?
    public var errorMessage: String?

    public init(errorCode: Int?, errorMessage: String?) {
        self.errorCode = errorCode
        self.errorMessage = errorMessage
    }
}
