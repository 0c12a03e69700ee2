import Foundation

/// Set App Account Token's body.
public struct UpdateAppAccountTokenRequest: Codable, Hashable, Sendable {
    public var appAccountToken: UUID

    public init(appAccountToken: UUID) {
        self.appAccountToken = appAccountToken
    }
}
