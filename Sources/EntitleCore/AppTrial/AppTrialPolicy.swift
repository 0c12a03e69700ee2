import Foundation

/// An app-managed trial: the trial's entitlements from the subscriber's first launch for `length`,
/// then a warning period of `grace` with the grace entitlements, then lockout, where only the free
/// tier and `lockoutAccess` remain.
///
/// It needs no App Store purchase, unlike a StoreKit introductory offer, and the two coexist. A store
/// purchase at any point supersedes it.
public struct AppTrialPolicy: Hashable, Sendable {
    public var length: ISODuration
    public var grace: ISODuration?
    /// Whether the same warning period follows the end of a paid entitlement (not a refund).
    public var graceAfterSubscriptionExpiry: Bool
    /// The entitlements granted during the trial.
    public var entitlementIDs: [String]
    /// The entitlements granted, with warnings, during the warning period.
    public var graceEntitlementIDs: [String]
    /// What lockout still allows on top of the free tier.
    public var lockoutAccess: AccessLevel

    public init(
        length: ISODuration, grace: ISODuration? = nil, graceAfterSubscriptionExpiry: Bool = false,
        entitlementIDs: [String], graceEntitlementIDs: [String]? = nil, lockoutAccess: AccessLevel = .nothing
    ) {
        self.length = length
        self.grace = grace
        self.graceAfterSubscriptionExpiry = graceAfterSubscriptionExpiry
        self.entitlementIDs = entitlementIDs
        self.graceEntitlementIDs = graceEntitlementIDs ?? entitlementIDs
        self.lockoutAccess = lockoutAccess
    }

    /// The trial's phase for a subscriber who first launched at `startedAt`.
    ///
    /// - Parameters:
    ///   - purchasedAt: the earliest store purchase that granted an entitlement, if any; from then on
    ///     the trial is superseded.
    ///   - extraDays: days support added (``AppTrialExtension``): the trial ends that much later, and
    ///     its grace and lockout with it.
    public func phase(startedAt: Date?, purchasedAt: Date?, extraDays: Int = 0, at now: Date) -> AppTrialPhase {
        guard let startedAt, startedAt <= now else { return .notStarted }
        if let purchasedAt, purchasedAt <= now { return .superseded(at: max(purchasedAt, startedAt)) }
        let trialEnd = trialEnd(startedAt: startedAt, extraDays: extraDays)
        if now < trialEnd { return .active(endsAt: trialEnd) }
        let lockoutAt = grace.map { $0.added(to: trialEnd) } ?? trialEnd
        if now < lockoutAt { return .grace(trialEndedAt: trialEnd, lockoutAt: lockoutAt) }
        return .lockout(since: lockoutAt)
    }

    /// When a trial that started at `startedAt` ends, with `extraDays` added.
    public func trialEnd(startedAt: Date, extraDays: Int = 0) -> Date {
        ISODuration(days: min(max(extraDays, 0), AppTrialExtension.longest)).added(to: length.added(to: startedAt))
    }
}
