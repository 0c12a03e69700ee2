import Foundation

/// The app's log-in tokens (`logInTokens` in the entitlements file): the public keys its backend signs
/// them with, and whether app keys reach known users only through them.
public struct LogInTokensDocument: Decodable, Sendable, Hashable {
    /// Key ID → P-256 public key as PEM (`-----BEGIN PUBLIC KEY-----`). The token's `kid` names one.
    public var publicKeys: [String: String]
    /// When `true`, an app key reaches anonymous subscribers only; a known user is reached with the
    /// public key their log-in (with a token) returned. Default `false`.
    public var requiredForAppKeys: Bool?
}
