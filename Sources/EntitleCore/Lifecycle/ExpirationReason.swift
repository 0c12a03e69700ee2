import AppStoreModels
import Foundation

/// Why a subscription expired, from Apple's `expirationIntent`.
public enum ExpirationReason: String, Hashable, Sendable, Codable, CaseIterable {
    /// The customer turned off auto-renew (expirationIntent 1).
    case voluntary
    /// Billing failed and retry ended (expirationIntent 2).
    case billingError = "billing_error"
    /// The customer didn't consent to a price increase (expirationIntent 3).
    case priceIncreaseDeclined = "price_increase_declined"
    /// The product was not available at renewal (expirationIntent 4).
    case productUnavailable = "product_unavailable"
    /// Apple's OTHER (expirationIntent 5) or an intent this version doesn't know.
    case other
    /// A non-renewing subscription reached the end of its duration.
    case periodEnded = "period_ended"
    /// No renewal info says why yet.
    case unknown

    public init(_ intent: ExpirationIntent?) {
        switch intent {
        case .customerCancelled?: self = .voluntary
        case .billingError?: self = .billingError
        case .customerDidNotConsentToPriceIncrease?: self = .priceIncreaseDeclined
        case .productNotAvailable?: self = .productUnavailable
        case nil: self = .unknown
        default: self = .other
        }
    }
}
