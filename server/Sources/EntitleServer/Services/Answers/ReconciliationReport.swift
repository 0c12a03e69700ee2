import EntitleCore
import Foundation

/// What one reconciliation pass of one app found and changed.
public struct ReconciliationReport: Hashable, Sendable {
    public var app: BundleID
    /// The window of Notification History read.
    public var from: Date
    public var to: Date
    /// Notifications Apple's history holds for the window.
    public var notificationsRead = 0
    /// Of those, the ones the ledger didn't have (lost or never delivered), now ingested.
    public var notificationsAdded = 0
    /// Of those, the ones that did not verify (kept out of the ledger).
    public var notificationsRefused = 0
    /// Purchase chains past their expiry with no news since, whose status was asked for.
    public var purchasesChecked = 0
    /// Signed transactions and renewal info from those answers that told the ledger something new.
    public var statusEventsAdded = 0
    /// Of those purchases, the ones Apple had no answer for (or an answer the ledger refused); the
    /// next pass asks again.
    public var purchasesUnanswered = 0
    /// Purchases whose events were held for want of an owner, looked up in Apple's transaction history.
    public var heldPurchasesChecked = 0
    /// Of those, the ones linked to a subscriber by an appAccountToken Apple's history carries.
    public var heldPurchasesLinked = 0
    /// Whether another instance held the pass's lease, so this one did nothing.
    public var skipped = false
    /// How long the pass took, in seconds (wall clock, for the operator).
    public var seconds: Double = 0

    public init(app: BundleID, from: Date, to: Date) {
        self.app = app
        self.from = from
        self.to = to
    }

    /// Every event the pass added to the ledger.
    public var eventsAdded: Int { notificationsAdded + statusEventsAdded + heldPurchasesLinked }
}
