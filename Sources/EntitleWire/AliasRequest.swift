import Foundation

/// `POST /v1/subscribers/{anonymousID}/alias`: the anonymous user signed in as `appUserID`.
public struct AliasRequest: Codable, Hashable, Sendable {
    public var appUserID: String

    public init(appUserID: String) {
        self.appUserID = appUserID
    }
}
