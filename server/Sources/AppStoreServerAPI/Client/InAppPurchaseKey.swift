import Crypto
import Foundation

/// An in-app purchase key from App Store Connect (Users and Access › Integrations): the private key
/// of its `.p8` file, its key ID and the team's issuer ID. It signs App Store Server API tokens and
/// promotional offers for every app of the team. Its description never shows the key.
public struct InAppPurchaseKey: Sendable, CustomStringConvertible {
    public var privateKey: P256.Signing.PrivateKey
    public var keyID: String
    public var issuerID: String

    public init(privateKey: P256.Signing.PrivateKey, keyID: String, issuerID: String) {
        self.privateKey = privateKey
        self.keyID = keyID
        self.issuerID = issuerID
    }

    /// The key of a `.p8` file's contents (PEM, PKCS #8).
    public init(p8 text: String, keyID: String, issuerID: String) throws {
        self.init(privateKey: try P256.Signing.PrivateKey(pemRepresentation: text), keyID: keyID, issuerID: issuerID)
    }

    /// The API token this key signs for the app `bundleID`.
    public func token(bundleID: String) -> APIToken {
        APIToken(key: privateKey, keyID: keyID, issuerID: issuerID, bundleID: bundleID)
    }

    public var description: String { "InAppPurchaseKey(keyID: \(keyID), issuerID: \(issuerID))" }
}
