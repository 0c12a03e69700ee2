import Foundation

/// `POST /v1/subscribers/{appUserID}/grants`: grant an entitlement for a period.
public struct GrantRequest: Codable, Hashable, Sendable {
    public var entitlementID: String
    /// Defaults to now.
    public var startsAt: Date?
    /// `nil` grants until revoked.
    public var endsAt: Date?
    public var reason: String?

    public init(entitlementID: String, startsAt: Date? = nil, endsAt: Date? = nil, reason: String? = nil) {
        self.entitlementID = entitlementID
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.reason = reason
    }
}

/// `POST /v1/subscribers/{appUserID}/overrides`: lift every limit for one subscriber (a debug bypass,
/// a support unblock).
public struct OverrideRequest: Codable, Hashable, Sendable {
    public var endsAt: Date?
    public var reason: String?

    public init(endsAt: Date? = nil, reason: String? = nil) {
        self.endsAt = endsAt
        self.reason = reason
    }
}

/// One entry of a subscriber's timeline (`GET /v1/subscribers/{appUserID}/events`). Signed payloads are
/// never returned.
public struct TimelineEvent: Codable, Hashable, Sendable {
    public var id: String
    public var source: String
    /// What happened: the notification type (and subtype), `transaction`, `grant`, …
    public var kind: String
    public var notificationUUID: String?
    public var transactionID: String?
    public var originalTransactionID: String?
    public var signedDate: Date?
    public var receivedAt: Date

    public init(
        id: String, source: String, kind: String, notificationUUID: String?, transactionID: String?, originalTransactionID: String?,
        signedDate: Date?, receivedAt: Date
    ) {
        self.id = id
        self.source = source
        self.kind = kind
        self.notificationUUID = notificationUUID
        self.transactionID = transactionID
        self.originalTransactionID = originalTransactionID
        self.signedDate = signedDate
        self.receivedAt = receivedAt
    }
}

/// `GET /v1/purchases/{originalTransactionID}`: who owns a purchase.
public struct PurchaseLookupResponse: Codable, Hashable, Sendable {
    public var originalTransactionID: String
    /// `nil` while no subscriber is linked.
    public var appUserID: String?
    /// Notifications held until the purchase is linked.
    public var heldEvents: Int

    public init(originalTransactionID: String, appUserID: String?, heldEvents: Int) {
        self.originalTransactionID = originalTransactionID
        self.appUserID = appUserID
        self.heldEvents = heldEvents
    }
}
