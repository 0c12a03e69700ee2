#if !canImport(StoreKit)
import Foundation

/// https://developer.apple.com/documentation/storekit/verificationresult
/// `@frozen enum VerificationResult<SignedType>` — iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0.
@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
@frozen
public enum VerificationResult<SignedType> {
    /// https://developer.apple.com/documentation/storekit/verificationresult/unverified(_:_:)
    case unverified(SignedType, VerificationResult<SignedType>.VerificationError)
    /// https://developer.apple.com/documentation/storekit/verificationresult/verified(_:)
    case verified(SignedType)

    /// https://developer.apple.com/documentation/storekit/verificationresult/verificationerror
    public enum VerificationError: Error, Sendable, Hashable {
        case revokedCertificate
        case invalidCertificateChain
        case invalidDeviceVerification
        case invalidEncoding
        case invalidSignature
        case missingRequiredProperties
    }

    /// https://developer.apple.com/documentation/storekit/verificationresult/payloadvalue
    /// `var payloadValue: SignedType { get throws }`
    public var payloadValue: SignedType {
        get throws {
            switch self {
            case .verified(let value): return value
            case .unverified(_, let error): throw error
            }
        }
    }

    /// https://developer.apple.com/documentation/storekit/verificationresult/unsafepayloadvalue
    /// `var unsafePayloadValue: SignedType { get }`
    public var unsafePayloadValue: SignedType {
        switch self {
        case .verified(let value), .unverified(let value, _): return value
        }
    }
}

extension VerificationResult: Sendable where SignedType: Sendable {}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Transaction {
    /// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-21vgo
    /// `var jwsRepresentation: String { get }` — the transaction signed by the App Store, compact JWS.
    public var jwsRepresentation: String { unsafePayloadValue.jws }

    /// https://developer.apple.com/documentation/storekit/verificationresult/payloaddata-uyle
    public var payloadData: Data { unsafePayloadValue.jsonRepresentation }

    /// The mirror's own: a signed transaction as the backend handed it over, decoded as StoreKit decodes it.
    /// `nil` when the JWS is not a transaction StoreKit could read.
    init?(_ signed: StoreKitMirrorSigned) {
        guard let transaction = Transaction(jws: signed.jws) else { return nil }
        self = signed.verificationError.map { .unverified(transaction, $0) } ?? .verified(transaction)
    }
}

@available(iOS 15.0, macOS 12.0, tvOS 15.0, watchOS 8.0, visionOS 1.0, *)
extension VerificationResult where SignedType == Product.SubscriptionInfo.RenewalInfo {
    /// https://developer.apple.com/documentation/storekit/verificationresult/jwsrepresentation-178oj
    /// `var jwsRepresentation: String { get }` — the renewal info signed by the App Store, compact JWS.
    public var jwsRepresentation: String { unsafePayloadValue.jws }
}
#endif
