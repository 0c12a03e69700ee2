import Foundation

/// Send Consumption Information's body (App Store Server API 1.19): the customer consented (Apple
/// refuses anything else), how much was consumed (milliunits of 100%, 0 when not delivered), whether
/// the purchase was delivered and works, whether a sample or trial came first, and the developer's
/// refund preference.
public struct ConsumptionRequest: Codable, Hashable, Sendable {
    /// `DELIVERED`, `UNDELIVERED_QUALITY_ISSUE`, `UNDELIVERED_WRONG_ITEM`, `UNDELIVERED_SERVER_OUTAGE`, `UNDELIVERED_OTHER`.
    public enum DeliveryStatus: String, Codable, Hashable, Sendable, CaseIterable {
        case delivered = "DELIVERED"
        case undeliveredQualityIssue = "UNDELIVERED_QUALITY_ISSUE"
        case undeliveredWrongItem = "UNDELIVERED_WRONG_ITEM"
        case undeliveredServerOutage = "UNDELIVERED_SERVER_OUTAGE"
        case undeliveredOther = "UNDELIVERED_OTHER"
    }

    /// `GRANT_FULL`, `DECLINE`, `GRANT_PRORATED`.
    public enum RefundPreference: String, Codable, Hashable, Sendable, CaseIterable {
        case grantFull = "GRANT_FULL"
        case decline = "DECLINE"
        case grantProrated = "GRANT_PRORATED"
    }

    public var customerConsented: Bool
    public var consumptionPercentage: Int?
    public var deliveryStatus: DeliveryStatus
    public var sampleContentProvided: Bool
    public var refundPreference: RefundPreference?

    public init(
        customerConsented: Bool = true, consumptionPercentage: Int? = nil, deliveryStatus: DeliveryStatus, sampleContentProvided: Bool,
        refundPreference: RefundPreference? = nil
    ) {
        self.customerConsented = customerConsented
        self.consumptionPercentage = consumptionPercentage
        self.deliveryStatus = deliveryStatus
        self.sampleContentProvided = sampleContentProvided
        self.refundPreference = refundPreference
    }
}
