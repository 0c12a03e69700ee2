import Foundation

/// How a subscription offer is paid: free, a discounted price each period, or one discounted payment.
public enum OfferPaymentMode: String, Hashable, Sendable, Codable, CaseIterable {
    case freeTrial = "free"
    case payAsYouGo
    case payUpFront
}
