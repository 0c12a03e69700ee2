import AppStoreModels
import Foundation
import X509

/// What a ``SignedDataVerifier`` accepts: whose data, from which environment, trusting which roots.
public struct VerifierConfiguration: Sendable {
    /// The app's bundle identifier; payloads for another app are refused.
    public var bundleID: String
    /// The environment payloads must come from.
    public var environment: Environment
    /// The app's Apple ID, required to accept production notifications and app transactions.
    public var appAppleID: Int64?
    /// The trusted roots. Apple Root CA - G3 by default; the x5c chain's own root is never trusted.
    public var rootCertificates: [Certificate]
    /// For the Xcode environment: the StoreKit Testing certificates the operator exported from Xcode.
    /// Xcode data must be signed by one of them, byte for byte.
    public var xcodeCertificates: [Certificate]
    /// Online revocation checks; `nil` (the default) validates chains offline at the payload's signedDate.
    public var revocation: RevocationChecking?
    /// Inputs larger than this are refused before any decoding.
    public var maximumInputSize: Int
    /// How many validated chains to remember.
    public var cacheCapacity: Int

    public init(
        bundleID: String, environment: Environment, appAppleID: Int64? = nil,
        rootCertificates: [Certificate] = [AppleRootCertificates.appleRootCAG3], xcodeCertificates: [Certificate] = [],
        revocation: RevocationChecking? = nil, maximumInputSize: Int = 512 * 1024, cacheCapacity: Int = 64
    ) {
        self.bundleID = bundleID
        self.environment = environment
        self.appAppleID = appAppleID
        self.rootCertificates = rootCertificates
        self.xcodeCertificates = xcodeCertificates
        self.revocation = revocation
        self.maximumInputSize = maximumInputSize
        self.cacheCapacity = cacheCapacity
    }
}
