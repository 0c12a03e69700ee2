import Foundation

/// Where a ledger event came from.
public enum LedgerEventSource: String, Hashable, Sendable, Codable, CaseIterable {
    /// An App Store Server Notification, verified.
    case appStoreNotification = "app_store_notification"
    /// A StoreKit 2 transaction the app submitted, verified.
    case appTransaction = "app_transaction"
    /// A transaction or renewal info imported from the App Store Server API, verified.
    case appStoreServerAPI = "app_store_server_api"
    /// The app reported its first launch (the app-managed trial starts).
    case appTrialStart = "app_trial_start"
    /// The app reported an Ask to Buy request awaiting approval, or its decline.
    case purchaseRequest = "purchase_request"
    /// The app set subscriber attributes (time zone, email, display name, locale).
    case attributes
    /// An anonymous user logged in: their subscriber merged into the known one.
    case login
    /// The app recorded metered usage.
    case usage
    /// An operator action: grant, revoke, override.
    case admin
    /// A purchase moved to another subscriber by the restore policy.
    case restore
    /// The global "grant access to everyone until T" switch (no subscriber).
    case openAccess = "open_access"
    case paywall
    /// An experiment's definition (global), or a subscriber's enrolment in one.
    case experiment
    /// The app registered, renamed or removed something counted against a limit (a paired device).
    case items
    /// A customer's history fetched from Apple by `entitle import` (an app moving in): no webhooks for it.
    case `import`
}
