import Foundation

/// Which paywall a denied (or warned) action should lead to.
public enum PaywallTrigger: String, Hashable, Sendable, Codable, CaseIterable {
    /// Never subscribed, or a refund ended access: show the plans.
    case subscribe
    /// A subscription ended: invite them back.
    case renew
    /// Subscribed, but the plan doesn't include this or allow this much: show higher plans.
    case upgrade
    /// A trial (StoreKit's or the app's) ended without a purchase.
    case convertTrial = "convert_trial"
    /// Apple can't collect the payment: send them to update it in the App Store.
    case updatePayment = "update_payment"
}
