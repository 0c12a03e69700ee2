import Foundation

/// `PUT /v1/subscribers/{appUserID}/app-account-token`: a token the app chose for the subscriber (for
/// apps that already pass their own UUID to StoreKit).
public struct AppAccountTokenRequest: Codable, Hashable, Sendable {
    public var appAccountToken: UUID

    public init(appAccountToken: UUID) {
        self.appAccountToken = appAccountToken
    }
}
