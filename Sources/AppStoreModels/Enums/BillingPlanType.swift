import Foundation

/// How a subscription with a 12-month commitment is billed.
///
/// [billingPlanType](https://developer.apple.com/documentation/appstoreserverapi/billingplantype)
public struct BillingPlanType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Billed every month of a 12-month commitment.
    public static let monthly = BillingPlanType(rawValue: "MONTHLY")
    /// The whole commitment (or period) paid at once: how a subscription without a monthly plan is billed.
    public static let billedUpFront = BillingPlanType(rawValue: "BILLED_UPFRONT")

    public static let documented: [(value: BillingPlanType, name: String)] = [
        (.monthly, "MONTHLY"),
        (.billedUpFront, "BILLED_UPFRONT"),
    ]
}
