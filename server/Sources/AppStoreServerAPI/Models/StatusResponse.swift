import Foundation

/// Get All Subscription Statuses: every subscription group of the customer, with the latest signed
/// transaction and renewal info of each subscription in it.
public struct StatusResponse: Codable, Hashable, Sendable {
    public struct Group: Codable, Hashable, Sendable {
        public var subscriptionGroupIdentifier: String?
        public var lastTransactions: [LastTransaction]?
        public init(subscriptionGroupIdentifier: String?, lastTransactions: [LastTransaction]?) {
            self.subscriptionGroupIdentifier = subscriptionGroupIdentifier
            self.lastTransactions = lastTransactions
        }
    }

    public struct LastTransaction: Codable, Hashable, Sendable {
        /// 1 active, 2 expired, 3 billing retry, 4 billing grace period, 5 revoked.
        public var status: Int?
        public var originalTransactionId: String?
        public var signedTransactionInfo: String?
        public var signedRenewalInfo: String?
        public init(status: Int?, originalTransactionId: String?, signedTransactionInfo: String?, signedRenewalInfo: String?) {
            self.status = status
            self.originalTransactionId = originalTransactionId
            self.signedTransactionInfo = signedTransactionInfo
            self.signedRenewalInfo = signedRenewalInfo
        }
    }

    public var environment: String?
    public var bundleId: String?
    public var appAppleId: Int64?
    public var data: [Group]?

    public init(environment: String?, bundleId: String?, appAppleId: Int64?, data: [Group]?) {
        self.environment = environment
        self.bundleId = bundleId
        self.appAppleId = appAppleId
        self.data = data
    }
}
