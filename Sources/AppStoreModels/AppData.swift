import Foundation

/// The app metadata and signed app transaction of notifications about the app rather than a
/// purchase (RESCIND_CONSENT).
///
/// [appData](https://developer.apple.com/documentation/appstoreservernotifications/appdata)
public struct AppData: Codable, Hashable, Sendable {
    public var appAppleId: Int64?
    public var bundleId: String?
    public var environment: Environment?
    /// The app transaction, signed by the App Store (a JWS).
    public var signedAppTransactionInfo: String?

    public init(appAppleId: Int64? = nil, bundleId: String? = nil, environment: Environment? = nil, signedAppTransactionInfo: String? = nil) {
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.environment = environment
        self.signedAppTransactionInfo = signedAppTransactionInfo
    }
}
