import Foundation

/// How a purchase ended, each with a stable code, what to tell the user, and whether trying again may help.
public enum PurchaseOutcome: Sendable, Hashable {
    /// Bought and stored by the server: the customer info is current.
    case success(CustomerInfo)
    case cancelled
    /// Ask to Buy: waiting for a parent; the server shows it as pending until the answer.
    case pending
    /// The store's data or the server's verification refused it.
    case verificationFailed(String)
    /// The server could not be reached (after retries); the store keeps the transaction unfinished and
    /// hands it over again at the next launch.
    case networkError(String)
    case storeUnavailable(String)
    case productUnavailable(String)
    case notAllowed(String)

    /// A stable code for logs and analytics.
    public var code: String {
        switch self {
        case .success: "purchase.success"
        case .cancelled: "purchase.cancelled"
        case .pending: "purchase.pending"
        case .verificationFailed: "purchase.verificationFailed"
        case .networkError: "purchase.network"
        case .storeUnavailable: "purchase.storeUnavailable"
        case .productUnavailable: "purchase.productUnavailable"
        case .notAllowed: "purchase.notAllowed"
        }
    }

    /// What to tell the user (seeds 001 and 003 ask for these).
    public var userMessage: String {
        switch self {
        case .success: "Thank you! Your purchase is active."
        case .cancelled: "The purchase was cancelled. You have not been charged."
        case .pending: "Your purchase is waiting for approval. You'll get access as soon as it's approved."
        case .verificationFailed: "We couldn't verify this purchase. You have not been charged twice; please contact support."
        case .networkError: "We couldn't reach our server. Your purchase is safe and will be activated when you're back online."
        case .storeUnavailable: "The App Store isn't available right now. Please try again later."
        case .productUnavailable: "This item isn't available in your country or region."
        case .notAllowed: "Purchases aren't allowed on this device. Check Screen Time restrictions."
        }
    }

    /// Whether trying again may succeed.
    public var isRetryable: Bool {
        switch self {
        case .networkError, .storeUnavailable: true
        default: false
        }
    }
}
