import EntitleCore
extension SubscriberService {
    /// Checks that `token`, signed by the app's backend, proves the user logging in is `appUserID`.
    /// - Throws: `auth.invalidLogInToken`, also when the app lists no log-in token keys.
    public func verifyLogInToken(_ token: String, for appUserID: AppUserID) throws(ServiceError) {
        guard let logInTokens else {
            throw ServiceError(.invalidLogInToken, "\(bundleID) lists no log-in token keys (logInTokens in its entitlements file)")
        }
        try logInTokens.verify(token, appUserID: appUserID, now: now())
    }
}
