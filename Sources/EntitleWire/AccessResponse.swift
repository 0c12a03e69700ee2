import Foundation

/// `GET /v1/subscribers/{appUserID}/access/{feature}`: may the subscriber do this now?
public struct AccessResponse: Codable, Hashable, Sendable {
    public var feature: String
    public var outcome: AccessOutcome
    public var reason: Reason?
    public var paywall: Paywall?
    /// For limits and quotas: the allowed maximum; `null` inside when unlimited.
    public var allowance: Allowance?
    public var quota: QuotaInfo?
    public var serverTime: Date

    public struct Reason: Codable, Hashable, Sendable {
        public var code: AccessReasonCode
        public var maximum: Int?
        public var resetsAt: Date?
        public var lockoutAt: Date?
        public var gracePeriodEndsAt: Date?
        public init(code: AccessReasonCode, maximum: Int? = nil, resetsAt: Date? = nil, lockoutAt: Date? = nil, gracePeriodEndsAt: Date? = nil) {
            self.code = code
            self.maximum = maximum
            self.resetsAt = resetsAt
            self.lockoutAt = lockoutAt
            self.gracePeriodEndsAt = gracePeriodEndsAt
        }
    }

    public struct Allowance: Codable, Hashable, Sendable {
        public var maximum: Int?
        public init(maximum: Int?) { self.maximum = maximum }
    }

    public init(feature: String, outcome: AccessOutcome, reason: Reason?, paywall: Paywall?, allowance: Allowance?, quota: QuotaInfo?, serverTime: Date) {
        self.feature = feature
        self.outcome = outcome
        self.reason = reason
        self.paywall = paywall
        self.allowance = allowance
        self.quota = quota
        self.serverTime = serverTime
    }
}
