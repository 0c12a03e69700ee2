import Foundation

/// The customer's reason for requesting a refund.
///
/// [ConsumptionRequestReason](https://developer.apple.com/documentation/appstoreservernotifications/consumptionrequestreason)
public struct ConsumptionRequestReason: AppStoreEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let unintendedPurchase = ConsumptionRequestReason(rawValue: "UNINTENDED_PURCHASE")
    public static let fulfillmentIssue = ConsumptionRequestReason(rawValue: "FULFILLMENT_ISSUE")
    public static let unsatisfiedWithPurchase = ConsumptionRequestReason(rawValue: "UNSATISFIED_WITH_PURCHASE")
    public static let legal = ConsumptionRequestReason(rawValue: "LEGAL")
    public static let other = ConsumptionRequestReason(rawValue: "OTHER")

    public static let documented: [(value: ConsumptionRequestReason, name: String)] = [
        (.unintendedPurchase, "UNINTENDED_PURCHASE"),
        (.fulfillmentIssue, "FULFILLMENT_ISSUE"),
        (.unsatisfiedWithPurchase, "UNSATISFIED_WITH_PURCHASE"),
        (.legal, "LEGAL"),
        (.other, "OTHER"),
    ]
}
