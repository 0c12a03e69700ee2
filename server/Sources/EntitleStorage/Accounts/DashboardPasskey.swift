import Foundation

/// A passkey (a WebAuthn credential) an account registered: its ID as the authenticator gave it, and its
/// P-256 public key (X9.63), with the signature counter the authenticator last reported.
public struct DashboardPasskey: Hashable, Sendable {
    /// The credential ID, base64url.
    public var credentialID: String
    public var accountID: String
    /// The public key, X9.63 (uncompressed P-256 point).
    public var publicKey: Data
    public var signCount: UInt32
    public var name: String?
    public var createdAt: Date
    public var lastUsedAt: Date?

    public init(credentialID: String, accountID: String, publicKey: Data, signCount: UInt32, name: String?, createdAt: Date, lastUsedAt: Date? = nil) {
        self.credentialID = credentialID
        self.accountID = accountID
        self.publicKey = publicKey
        self.signCount = signCount
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
    }
}
