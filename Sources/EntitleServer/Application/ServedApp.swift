import AppStoreVerification
import EntitleCore
import Foundation

/// One app a server serves: its bundle ID, its catalog, and the verifiers of the environments it
/// accepts (each checking that bundle ID).
public struct ServedApp: Sendable {
    public var bundleID: String
    public var catalog: Catalog
    /// One verifier per accepted environment, tried in order.
    public var verifiers: [SignedDataVerifier]

    public init(bundleID: String, catalog: Catalog, verifiers: [SignedDataVerifier]) {
        self.bundleID = bundleID
        self.catalog = catalog
        self.verifiers = verifiers
    }
}
