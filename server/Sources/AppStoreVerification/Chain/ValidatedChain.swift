import Crypto
import Foundation

/// What a successful chain validation yields: the key to verify signatures with, and the instants
/// for which the whole chain is valid.
struct ValidatedChain: Sendable {
    let signingKey: P256.Signing.PublicKey
    /// The latest `notValidBefore` and earliest `notValidAfter` of the chain's certificates.
    let validity: ClosedRange<Date>
    /// For online checks: when the revocation status was last confirmed.
    let checkedAt: Date?
}
