import Foundation

/// One variant's results: what its enrolled subscribers did, and (for every variant but the control)
/// how that compares with the control.
public struct VariantResult: Hashable, Sendable, Codable {
    public var variantID: String
    public var exposed: Int64
    public var trials: Int64
    public var trialRate: Double?
    public var paid: Int64
    public var paidRate: Double?
    /// Net revenue within the window per exposed subscriber, by currency, in milliunits.
    public var revenuePerExposed: [String: Double]
    public var renewalOpportunities: Int64
    public var renewals: Int64
    public var renewalRate: Double?
    /// Against the control; absent for the control itself, or while either has no one exposed.
    public var trialComparison: Comparison?
    public var paidComparison: Comparison?
    /// By currency, in milliunits per exposed subscriber.
    public var revenueComparison: [String: Comparison]
    public var renewalComparison: Comparison?

    public init(variantID: String, exposed: Int64, trials: Int64, trialRate: Double?, paid: Int64, paidRate: Double?, revenuePerExposed: [String: Double], renewalOpportunities: Int64, renewals: Int64, renewalRate: Double?, trialComparison: Comparison?, paidComparison: Comparison?, revenueComparison: [String: Comparison], renewalComparison: Comparison?) {
        self.variantID = variantID
        self.exposed = exposed
        self.trials = trials
        self.trialRate = trialRate
        self.paid = paid
        self.paidRate = paidRate
        self.revenuePerExposed = revenuePerExposed
        self.renewalOpportunities = renewalOpportunities
        self.renewals = renewals
        self.renewalRate = renewalRate
        self.trialComparison = trialComparison
        self.paidComparison = paidComparison
        self.revenueComparison = revenueComparison
        self.renewalComparison = renewalComparison
    }
}
