import Foundation

/// What Apple asks your Get Retention Message endpoint, in real time, when a customer is about to cancel
/// a subscription: the decoded `signedPayload` of a ``RealtimeRequestBody``.
///
/// [DecodedRealtimeRequestBody](https://developer.apple.com/documentation/retentionmessaging/decodedrealtimerequestbody)
public struct DecodedRealtimeRequestBody: Codable, Hashable, Sendable {
    /// The subscription the customer is about to cancel.
    public var originalTransactionId: String?
    public var appAppleId: Int64?
    /// The subscription's product.
    public var productId: String?
    /// The device's locale (`en-US`).
    public var userLocale: String?
    /// Apple's identifier of this request.
    public var requestIdentifier: UUID?
    public var signedDate: Date?
    public var environment: Environment?

    public init(
        originalTransactionId: String? = nil, appAppleId: Int64? = nil, productId: String? = nil, userLocale: String? = nil,
        requestIdentifier: UUID? = nil, signedDate: Date? = nil, environment: Environment? = nil
    ) {
        self.originalTransactionId = originalTransactionId
        self.appAppleId = appAppleId
        self.productId = productId
        self.userLocale = userLocale
        self.requestIdentifier = requestIdentifier
        self.signedDate = signedDate
        self.environment = environment
    }

    /// The first value outside ``AppStoreValueRanges``, if any.
    public var outOfRangeValue: OutOfRangeValue? {
        var check = RangeCheck("realtime request")
        check.instant("signedDate", signedDate)
        return check.problem
    }
}
