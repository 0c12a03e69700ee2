import AppStoreModels
import Foundation

/// What a ledger event says. Apple's data is stored decoded (after verification) so projections can
/// be rebuilt without re-verifying certificates that may since have expired; the raw signed payload is
/// kept beside it.
public enum LedgerEventPayload: Hashable, Sendable, Codable {
    /// A notification's type, subtype and nested signed data.
    case notification(type: NotificationTypeV2?, subtype: Subtype?, transaction: JWSTransactionDecodedPayload?, renewalInfo: JWSRenewalInfoDecodedPayload?)
    case transaction(JWSTransactionDecodedPayload)
    case renewalInfo(JWSRenewalInfoDecodedPayload)
    /// The app's purchase of `productID` awaits a parent's approval (Ask to Buy).
    case purchaseRequested(productID: ProductID, at: Date)
    /// The Ask to Buy request for `productID` was declined.
    case purchaseDeclined(productID: ProductID, at: Date)
    case appTrialStarted(at: Date)
    /// Support added days to the subscriber's app-managed trial.
    case appTrialExtended(AppTrialExtension)
    case usage(UsageRecord)
    case grant(EntitlementGrant)
    case grantRevoked(grantID: String, at: Date)
    case override(AccessOverride)
    case overrideRemoved(overrideID: String, at: Date)
    /// A purchase chain moved from one subscriber to another (a restore onto another account). The
    /// receiving side carries the chain's facts at the move, so folding its own events rebuilds them.
    case purchaseTransferred(originalTransactionID: OriginalTransactionID, from: AppUserID?, to: AppUserID, facts: SubscriptionFacts?)
    case timeZoneSet(identifier: String)
    /// An anonymous subscriber (`from`) logged in as `into` and was merged into it. On `into`'s ledger
    /// the event carries `from`'s facts at the merge (``SubscriberFacts/absorb(_:)`` folds them in);
    /// on `from`'s it carries none.
    case subscriberMerged(from: AppUserID, into: AppUserID, facts: SubscriberFacts?)
    /// The app set (or, with `nil`, cleared) documented subscriber attributes (``SubscriberAttribute``).
    case attributesSet([String: String?])
    /// The global open-access switch set to `window`, or turned off (`nil`).
    case openAccessSet(OpenAccessWindow?)
    /// The subscriber joined a household and shares its entitlements from `at`.
    case householdJoined(householdID: AppUserID, at: Date)
    /// The subscriber left a household at `at`.
    case householdLeft(householdID: AppUserID, at: Date)
    /// The app's paywall did something (shown, closed, a purchase started…): no effect on access, the
    /// funnels' input.
    case paywall(PaywallEvent)
    /// The subscriber was enrolled in an experiment when it first served them (docs/growth.md).
    case experimentEnrolled(ExperimentEnrolment)
    /// An experiment was created or changed (global: no subscriber): the whole experiment as it now is.
    case experimentChanged(Experiment)
    /// The app registered, renamed or removed something counted against a numeric limit (a paired device).
    case item(ItemChange)
    /// The subscriber's transactions carry this app transaction ID: the event links the customer's app
    /// transaction (``OriginalTransactionID/appTransaction(_:)``) to them. No effect on access.
    case appTransactionLinked(appTransactionID: String)
    /// Another subscriber (`by`) submitted this subscriber's purchase as theirs at `at`: recorded on the
    /// owner before the restore policy keeps or moves the purchase. No effect on access; the evidence
    /// of a purchase shared across accounts (``AnomalyDetector``).
    case purchaseClaimed(originalTransactionID: OriginalTransactionID, by: AppUserID, at: Date)
    /// The customer asked to be deleted at `at` (``SubscriberErasure``): recorded under their pseudonym, after
    /// their events were erased. No effect on access or on the financial facts.
    case subscriberErased(at: Date)
}
