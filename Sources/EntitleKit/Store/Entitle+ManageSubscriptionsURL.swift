import Foundation

extension Entitle {
    /// Apple's page where a user manages their App Store subscriptions: what to open where StoreKit's
    /// sheet can't be shown (macOS, tvOS, watchOS, a web page, a support answer) or failed to show.
    public static let manageSubscriptionsURL = URL(string: "https://apps.apple.com/account/subscriptions")!
}
