import Foundation

/// What a reconciliation pass found and changed (`POST /v1/reconciliation`, `entitle reconcile`).
public struct ReconciliationResponse: Codable, Hashable, Sendable {
    public var app: String
    /// The window of Apple's Notification History read.
    public var from: Date
    public var to: Date
    public var notificationsRead: Int
    /// Notifications the ledger lacked (lost or never delivered), now ingested.
    public var notificationsAdded: Int
    /// Notifications that did not verify, kept out of the ledger.
    public var notificationsRefused: Int
    /// Subscriptions past their expiry with no news since, asked about.
    public var purchasesChecked: Int
    /// Events added from those answers.
    public var statusEventsAdded: Int
    /// Of those purchases, the ones Apple had no answer for, or whose answer the ledger refused (the
    /// next pass asks again).
    public var purchasesUnanswered: Int
    /// Purchases held for want of an owner, looked up in Apple's transaction history.
    public var heldPurchasesChecked: Int
    /// Of those, the ones linked to a subscriber by an appAccountToken in that history.
    public var heldPurchasesLinked: Int
    /// Another server instance was running a pass, so this one did nothing.
    public var skipped: Bool
    public var seconds: Double

    public init(
        app: String, from: Date, to: Date, notificationsRead: Int, notificationsAdded: Int, notificationsRefused: Int, purchasesChecked: Int,
        statusEventsAdded: Int, purchasesUnanswered: Int = 0, heldPurchasesChecked: Int = 0, heldPurchasesLinked: Int = 0, skipped: Bool, seconds: Double
    ) {
        self.heldPurchasesChecked = heldPurchasesChecked
        self.heldPurchasesLinked = heldPurchasesLinked
        self.app = app
        self.from = from
        self.to = to
        self.notificationsRead = notificationsRead
        self.notificationsAdded = notificationsAdded
        self.notificationsRefused = notificationsRefused
        self.purchasesChecked = purchasesChecked
        self.statusEventsAdded = statusEventsAdded
        self.purchasesUnanswered = purchasesUnanswered
        self.skipped = skipped
        self.seconds = seconds
    }

    /// Reads job reports stored before `purchasesUnanswered` was counted as none unanswered.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        app = try container.decode(String.self, forKey: .app)
        from = try container.decode(Date.self, forKey: .from)
        to = try container.decode(Date.self, forKey: .to)
        notificationsRead = try container.decode(Int.self, forKey: .notificationsRead)
        notificationsAdded = try container.decode(Int.self, forKey: .notificationsAdded)
        notificationsRefused = try container.decode(Int.self, forKey: .notificationsRefused)
        purchasesChecked = try container.decode(Int.self, forKey: .purchasesChecked)
        statusEventsAdded = try container.decode(Int.self, forKey: .statusEventsAdded)
        purchasesUnanswered = try container.decodeIfPresent(Int.self, forKey: .purchasesUnanswered) ?? 0
        heldPurchasesChecked = try container.decode(Int.self, forKey: .heldPurchasesChecked)
        heldPurchasesLinked = try container.decode(Int.self, forKey: .heldPurchasesLinked)
        skipped = try container.decode(Bool.self, forKey: .skipped)
        seconds = try container.decode(Double.self, forKey: .seconds)
    }
}
