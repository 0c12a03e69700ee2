import Foundation

/// The path from first seen to paid of the subscribers first seen in a report's days (the seeds'
/// "downloads → paid"): each step counts who has reached it so far, whatever they did before.
public struct ArrivalPath: Hashable, Sendable, Codable {
    /// Subscribers first seen in the days.
    public var arrivals: Int64
    /// Of those, who has seen a paywall.
    public var sawPaywall: Int64
    /// Who has begun an introductory free trial.
    public var trials: Int64
    /// Who has paid.
    public var paid: Int64
    public var paywallRate: Double?
    public var trialRate: Double?
    public var paidRate: Double?

    public init(arrivals: Int64, sawPaywall: Int64, trials: Int64, paid: Int64, paywallRate: Double?, trialRate: Double?, paidRate: Double?) {
        self.arrivals = arrivals
        self.sawPaywall = sawPaywall
        self.trials = trials
        self.paid = paid
        self.paywallRate = paywallRate
        self.trialRate = trialRate
        self.paidRate = paidRate
    }
}
