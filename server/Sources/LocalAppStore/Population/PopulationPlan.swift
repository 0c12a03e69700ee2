/// The shape of a simulated population: how many people arrive over how long, and how they behave.
/// Probabilities are per person, or per billing period where they say so.
public struct PopulationPlan: Hashable, Sendable {
    public var subscribers = 2000
    public var months = 12
    public var seed: UInt64 = 1
    /// Arrivals who buy something (during the app-managed trial, when the app has one).
    public var purchase = 0.45
    /// StoreKit free trials that convert to paid.
    public var introductoryTrialConversion = 0.55
    /// Per month of subscription: the customer turns auto-renew off.
    public var cancellation = 0.06
    /// Per renewal: the charge fails.
    public var billingFailure = 0.06
    /// Failed renewals recovered (most within the grace period, the rest in billing retry).
    public var billingRecovery = 0.6
    /// Per purchase or renewal: refunded by Apple.
    public var refund = 0.02
    /// Of refunds of a subscription's period, those Apple prorates (the time left refunded).
    public var proratedRefund = 0.5
    /// Refunds Apple reverses.
    public var refundReversal = 0.15
    /// Per renewal: the customer upgrades to a higher level, or downgrades, in the group.
    public var upgrade = 0.05
    public var downgrade = 0.02
    /// Purchases of a family-shareable product that a family member also gets.
    public var familySharing = 0.15
    /// Voluntary churners who come back.
    public var resubscribe = 0.12
    /// Of purchases of a yearly subscription, those billed monthly under a 12-month commitment.
    public var monthlyCommitment = 0.3
    /// Of buyers when the catalog sells a lifetime (non-consumable) unlock beside subscriptions.
    public var lifetime = 0.12
    /// Of arrivals who wouldn't buy, those who do when an experiment serves them a variant other than
    /// the control (the offering the catalog serves by default): the true margin the demo's experiment finds.
    public var experimentLift = 0.20

    public init() {}
}
