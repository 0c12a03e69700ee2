import AppStoreModels
import Foundation

/// A payload Apple signs with a `signedDate`: of two versions of one, the later signed is current.
public protocol SignedPayload {
    var signedDate: Date? { get }
}

extension JWSTransactionDecodedPayload: SignedPayload {}
extension JWSRenewalInfoDecodedPayload: SignedPayload {}
