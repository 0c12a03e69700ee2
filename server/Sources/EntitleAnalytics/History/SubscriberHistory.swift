import AppStoreModels
import EntitleCore
import Foundation

/// A subscriber's history for analytics: the fold of their ledger events into purchase histories
/// and the app-managed trial's start. Like the projection, the same events in any order, duplicated
/// or replayed, give the same history.
public struct SubscriberHistory: Hashable, Sendable, LedgerFolding {
    public var appUserID: AppUserID
    public var purchases: [OriginalTransactionID: PurchaseHistory] = [:]
    public var appTrialStartedAt: Date?
    /// Days support added to the app-managed trial, by extension ID.
    public var appTrialExtensions: [String: Int] = [:]
    /// What the app's paywalls did, by the app's event ID.
    public var paywallEvents: [UUID: PaywallEvent] = [:]
    /// The earliest instant the ledger knows of the subscriber: an event's time on the device (a
    /// paywall event, the app-managed trial's start), a purchase's date, else when Apple signed an
    /// event or the server received it.
    public var firstSeenAt: Date?
    /// The subscriber's experiment enrolments (the earliest of each experiment), their own and those
    /// an anonymous subscriber who logged in as them brought.
    public var experiments: [String: ExperimentEnrolment] = [:]
    /// Whether the subscriber logged in as another and was merged into it: their enrolments count there.
    public var mergedAway = false
    /// Where the subscriber's cells count: from every transaction Apple signed for them, those restored
    /// to another subscriber since included (see ``AnalyticsEnvironment``).
    public var environment: AnalyticsEnvironment {
        sawProductionTransaction || !sawTestTransaction ? .production : .sandbox
    }
    private var sawProductionTransaction = false
    private var sawTestTransaction = false

    public init(appUserID: AppUserID) {
        self.appUserID = appUserID
    }

    /// The history of `appUserID` from its events, folded in Apple's order.
    public init(appUserID: AppUserID, events: [LedgerEvent]) {
        self = LedgerFold.fold(events, into: SubscriberHistory(appUserID: appUserID))
    }

    public mutating func apply(_ event: LedgerEvent) {
        noteSeen(event)
        switch event.payload {
        case .notification(let type, let subtype, let transaction, let renewalInfo):
            if let transaction { record(transaction) }
            if let renewalInfo, let original = renewalInfo.purchaseChain {
                purchases[original, default: PurchaseHistory(originalTransactionID: original)].record(renewalInfo)
                // The failed period: its transaction's end, else the renewal date Apple was trying to bill.
                if type == .didFailToRenew, transaction == nil, let end = renewalInfo.renewalDate {
                    purchases[original, default: PurchaseHistory(originalTransactionID: original)].recordFailedRenewal(periodEnd: end)
                }
            }
            if let reversal = event.refundReversal {
                purchases[reversal.originalTransactionID, default: PurchaseHistory(originalTransactionID: reversal.originalTransactionID)]
                    .recordRefundReversal(transactionID: reversal.transactionID, signedDate: reversal.signedDate)
            }
            guard let id = transaction?.transactionId, let original = transaction?.purchaseChain else { break }
            if type == .didFailToRenew, let end = transaction?.expiresDate {
                purchases[original, default: PurchaseHistory(originalTransactionID: original)].recordFailedRenewal(periodEnd: end)
            }
            if type == .didRenew, subtype == .billingRecovery {
                purchases[original, default: PurchaseHistory(originalTransactionID: original)].recordRecovery(transactionID: id)
            }
        case .transaction(let transaction):
            record(transaction)
        case .renewalInfo(let info):
            if let original = info.purchaseChain {
                purchases[original, default: PurchaseHistory(originalTransactionID: original)].record(info)
            }
        case .appTrialStarted(let at):
            appTrialStartedAt = min(appTrialStartedAt ?? at, at)
        case .appTrialExtended(let extension_):
            appTrialExtensions[extension_.id] = extension_.days
        case .purchaseTransferred:
            switch event.transferEffect(for: appUserID) {
            case .removed(let original)?:
                purchases.removeValue(forKey: original)
            case .received(let original, let facts)?:
                var carried = PurchaseHistory(originalTransactionID: original)
                facts.transactions.values.forEach { carried.record($0) }
                facts.transactions.values.forEach { noteEnvironment(of: $0) }
                for (id, date) in facts.refundReversals { carried.recordRefundReversal(transactionID: id, signedDate: date) }
                if let info = facts.renewalInfo { carried.record(info) }
                purchases[original, default: PurchaseHistory(originalTransactionID: original)].merge(carried)
            case nil:
                break
            }
        case .subscriberMerged(let from, let into, let facts):
            if from == appUserID, into != appUserID { mergedAway = true }
            if into == appUserID, let facts {
                // As the projection absorbs them: the subscriber's own stand.
                for (id, enrolment) in facts.experiments where experiments[id] == nil { experiments[id] = enrolment }
            }
        case .experimentEnrolled(let enrolment):
            recordEnrolment(enrolment)
        case .purchaseRequested, .purchaseDeclined, .usage, .grant, .grantRevoked, .override, .overrideRemoved, .timeZoneSet, .attributesSet, .openAccessSet,
            .householdJoined, .householdLeft, .experimentChanged, .item, .appTransactionLinked, .purchaseClaimed, .subscriberErased:
            break
        case .paywall(let paywall):
            paywallEvents[paywall.id] = paywall
        }
    }

    private mutating func recordEnrolment(_ enrolment: ExperimentEnrolment) {
        if let existing = experiments[enrolment.experimentID], !enrolment.precedes(existing) { return }
        experiments[enrolment.experimentID] = enrolment
    }

    private mutating func noteSeen(_ event: LedgerEvent) {
        let instant: Date
        switch event.payload {
        case .paywall(let paywall): instant = paywall.at
        case .appTrialStarted(let at): instant = at
        case .transaction(let transaction): instant = transaction.purchaseDate ?? event.signedDate ?? event.receivedAt
        case .notification(_, _, let transaction?, _): instant = transaction.purchaseDate ?? event.signedDate ?? event.receivedAt
        default: instant = event.signedDate ?? event.receivedAt
        }
        firstSeenAt = min(firstSeenAt ?? instant, instant)
    }

    private mutating func noteEnvironment(of transaction: JWSTransactionDecodedPayload) {
        switch AnalyticsEnvironment.of(transaction.environment) {
        case .production?: sawProductionTransaction = true
        case .sandbox?: sawTestTransaction = true
        case nil: break
        }
    }

    private mutating func record(_ transaction: JWSTransactionDecodedPayload) {
        noteEnvironment(of: transaction)
        guard let original = transaction.purchaseChain else { return }
        purchases[original, default: PurchaseHistory(originalTransactionID: original)].record(transaction)
    }
}
