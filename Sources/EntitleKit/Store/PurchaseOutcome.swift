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
    /// The user already has this product, active (subscribed, in a trial or a billing grace period, or a
    /// lifetime purchase): nothing was bought again, and the customer info says so.
    case alreadySubscribed(CustomerInfo)

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
        case .alreadySubscribed: "purchase.alreadySubscribed"
        }
    }

    /// What to tell the user, in the words the seed apps use (Epilogue's purchase states, Magical
    /// Stories' store errors); empty when the user needs no message (they cancelled themselves).
    public var userMessage: String {
        switch self {
        case .success: "Purchase complete. Enjoy!"
        case .cancelled: ""
        case .pending: "Purchase is pending approval. You'll get access as soon as it's approved."
        case .verificationFailed: "Purchase verification failed. Please contact support."
        case .networkError: "Network error. Check connection and try again."
        case .storeUnavailable: "The App Store isn't available right now. Please try again later."
        case .productUnavailable: "Not available in your region."
        case .notAllowed: "Purchases aren't allowed on this device or account."
        case .alreadySubscribed: "You're already subscribed."
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
