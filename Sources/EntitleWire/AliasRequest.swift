import Foundation

/// `POST /v1/subscribers/{anonymousID}/alias`: the anonymous user signed in as `appUserID`.
public struct AliasRequest: Codable, Hashable, Sendable {
    public var appUserID: String
    /// The app backend's proof that the user is `appUserID` (docs/identity.md): required with a
    /// per-subscriber key, and with an app key when the app asks for it.
    public var logInToken: String?

    public init(appUserID: String, logInToken: String? = nil) {
        self.appUserID = appUserID
        self.logInToken = logInToken
    }
}
