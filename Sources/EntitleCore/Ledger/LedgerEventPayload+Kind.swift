import AppStoreModels
import Foundation

extension LedgerEventPayload {
    /// A short, stable name of what the event records, for timelines: Apple's notification type and
    /// subtype (`DID_RENEW/BILLING_RECOVERY`), `transaction`, `usage/FEATURE`, `grant/ENTITLEMENT`, …
    public var kind: String {
        switch self {
        case .notification(let type, let subtype, _, _):
            [type?.rawValue ?? "NOTIFICATION", subtype?.rawValue].compactMap { $0 }.joined(separator: "/")
        case .transaction: "transaction"
        case .renewalInfo: "renewal_info"
        case .purchaseRequested(let productID, _): "purchase_requested/\(productID)"
        case .purchaseDeclined(let productID, _): "purchase_declined/\(productID)"
        case .appTrialStarted: "app_trial_started"
        case .appTrialExtended(let extension_): "app_trial_extended/\(extension_.days)d"
        case .usage(let record): "usage/\(record.feature)"
        case .grant(let grant): "grant/\(grant.entitlementID)"
        case .grantRevoked: "grant_revoked"
        case .override: "override"
        case .overrideRemoved: "override_removed"
        case .purchaseTransferred(_, let from, let to, _): "purchase_transferred/\(from ?? "-")→\(to)"
        case .timeZoneSet: "time_zone_set"
        case .subscriberMerged(let from, let into, _): "subscriber_merged/\(from)→\(into)"
        case .attributesSet(let values): "attributes_set/\(values.keys.sorted().joined(separator: ","))"
        case .openAccessSet(let window): window == nil ? "open_access_off" : "open_access_on"
        case .householdJoined(let household, _): "household_joined/\(household)"
        case .householdLeft(let household, _): "household_left/\(household)"
        case .paywall(let event): "paywall/\(event.kind.rawValue)"
        case .experimentEnrolled(let enrolment): "experiment_enrolled/\(enrolment.experimentID)/\(enrolment.variantID)"
        case .experimentChanged(let experiment): "experiment_changed/\(experiment.id)/\(experiment.state.rawValue)"
        case .appTransactionLinked(let id): "app_transaction_linked/\(id)"
        case .purchaseClaimed(_, let by, _): "purchase_claimed/\(by)"
        case .subscriberErased: "subscriber_erased"
        case .item(let change): "item_\(change.action.rawValue)/\(change.limit)/\(change.itemID)"
        }
    }
}
