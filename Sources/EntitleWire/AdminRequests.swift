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

/// `POST /v1/subscribers/{appUserID}/trial/extensions`: add days to the subscriber's app-managed trial
/// (support): the trial, its grace and the lockout move that much later.
public struct AppTrialExtensionRequest: Codable, Hashable, Sendable {
    /// 1 to 366; a subscriber's extensions add up to 366 days at most.
    public var days: Int
    public var reason: String?

    public init(days: Int, reason: String? = nil) {
        self.days = days
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

/// `PUT /v1/open-access`: grant access to everyone until `endsAt` (for the listed entitlements, or all).
public struct OpenAccessRequest: Codable, Hashable, Sendable {
    public var endsAt: Date
    public var entitlementIDs: [String]?
    public var reason: String?

    public init(endsAt: Date, entitlementIDs: [String]? = nil, reason: String? = nil) {
        self.endsAt = endsAt
        self.entitlementIDs = entitlementIDs
        self.reason = reason
    }
}

/// The global open-access switch. `isOn` is true once set until turned off (it still ends at `endsAt`).
public struct OpenAccessResponse: Codable, Hashable, Sendable {
    public var isOn: Bool
    public var startsAt: Date?
    public var endsAt: Date?
    /// Empty: every entitlement.
    public var entitlementIDs: [String]
    public var reason: String?

    public init(isOn: Bool, startsAt: Date?, endsAt: Date?, entitlementIDs: [String], reason: String?) {
        self.isOn = isOn
        self.startsAt = startsAt
        self.endsAt = endsAt
        self.entitlementIDs = entitlementIDs
        self.reason = reason
    }
}
