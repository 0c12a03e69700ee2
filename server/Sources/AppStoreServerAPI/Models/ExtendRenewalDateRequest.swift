import Foundation

/// Extend a Subscription Renewal Date's body: 1 to 90 days, Apple's reason code (0 undeclared,
/// 1 customer satisfaction, 2 other, 3 service issue or outage), and an ID of the request for support.
public struct ExtendRenewalDateRequest: Codable, Hashable, Sendable {
    public var extendByDays: Int
    public var extendReasonCode: Int
    public var requestIdentifier: String

    public init(extendByDays: Int, extendReasonCode: Int, requestIdentifier: String) {
        self.extendByDays = extendByDays
        self.extendReasonCode = extendReasonCode
        self.requestIdentifier = requestIdentifier
    }

    /// Apple's bounds: 1 to 90 days, reason 0 to 3, a request identifier of at most 128 characters.
    public var isValid: Bool {
        (1...90).contains(extendByDays) && (0...3).contains(extendReasonCode) && (1...128).contains(requestIdentifier.count)
    }
}
