import Foundation

/// The answer of an endpoint that returns no body (Send Consumption Information's 202, Set App Account Token's 200).
public struct EmptyResponse: Codable, Hashable, Sendable {
    public init() {}
}
