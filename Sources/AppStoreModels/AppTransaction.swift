import Foundation

/// Information about the customer's purchase of the app, signed by the App Store
/// (StoreKit's `AppTransaction`, and the App Store Server API's app transaction info).
///
/// [AppTransaction](https://developer.apple.com/documentation/storekit/apptransaction)
public struct AppTransaction: Codable, Hashable, Sendable {
    /// The environment the app transaction belongs to (Apple's field name is `receiptType`).
    public var receiptType: Environment?
    public var appAppleId: Int64?
    public var bundleId: String?
    public var applicationVersion: String?
    public var versionExternalIdentifier: Int64?
    public var receiptCreationDate: Date?
    public var originalPurchaseDate: Date?
    public var originalApplicationVersion: String?
    public var deviceVerification: String?
    public var deviceVerificationNonce: UUID?
    public var preorderDate: Date?
    public var appTransactionId: String?
    public var originalPlatform: PurchasePlatform?
    /// When the App Store signed this payload.
    public var signedDate: Date?

    public init(
        receiptType: Environment? = nil, appAppleId: Int64? = nil, bundleId: String? = nil, applicationVersion: String? = nil,
        versionExternalIdentifier: Int64? = nil, receiptCreationDate: Date? = nil, originalPurchaseDate: Date? = nil,
        originalApplicationVersion: String? = nil, deviceVerification: String? = nil, deviceVerificationNonce: UUID? = nil,
        preorderDate: Date? = nil, appTransactionId: String? = nil, originalPlatform: PurchasePlatform? = nil,
        signedDate: Date? = nil
    ) {
        self.receiptType = receiptType
        self.appAppleId = appAppleId
        self.bundleId = bundleId
        self.applicationVersion = applicationVersion
        self.versionExternalIdentifier = versionExternalIdentifier
        self.receiptCreationDate = receiptCreationDate
        self.originalPurchaseDate = originalPurchaseDate
        self.originalApplicationVersion = originalApplicationVersion
        self.deviceVerification = deviceVerification
        self.deviceVerificationNonce = deviceVerificationNonce
        self.preorderDate = preorderDate
        self.appTransactionId = appTransactionId
        self.originalPlatform = originalPlatform
        self.signedDate = signedDate
    }
}
