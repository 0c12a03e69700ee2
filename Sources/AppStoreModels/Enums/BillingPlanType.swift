import Foundation

/// How a subscription with a 12-month commitment is billed.
///
/// [billingPlanType](https://developer.apple.com/documentation/appstoreserverapi/billingplantype)
public struct BillingPlanType: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let monthly = BillingPlanType(rawValue: "MONTHLY")
    public static let upFront = BillingPlanType(rawValue: "UP_FRONT")

    public static let documented: [(value: BillingPlanType, name: String)] = [
        (.monthly, "MONTHLY"),
        (.upFront, "UP_FRONT"),
    ]
}
