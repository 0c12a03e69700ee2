import AppStoreServerAPI
import AppStoreVerification
import EntitleCore
import Foundation

/// One app a server serves: its bundle ID, its catalog, and the verifiers of the environments it
/// accepts (each checking that bundle ID).
public struct ServedApp: Sendable {
    public var bundleID: BundleID
    public var catalog: Catalog
    /// One verifier per accepted environment, tried in order.
    public var verifiers: [SignedDataVerifier]
    /// The App Store Server API for this app (reconciliation, look-ups by transaction or order ID,
    /// renewal extensions), when the team's in-app purchase key is configured.
    public var serverAPI: AppStoreServerAPIClient?
    /// The key promotional offers are signed with (the same in-app purchase key).
    public var offerKey: InAppPurchaseKey?

    public init(
        bundleID: BundleID, catalog: Catalog, verifiers: [SignedDataVerifier], serverAPI: AppStoreServerAPIClient? = nil,
        offerKey: InAppPurchaseKey? = nil
    ) {
        self.bundleID = bundleID
        self.catalog = catalog
        self.verifiers = verifiers
        self.serverAPI = serverAPI
        self.offerKey = offerKey
    }
}
