import AppStoreModels
import EntitleCore
import Foundation

/// The rules a request's values meet before any service works on them, in one place for every
/// service and controller.
public enum InputRules {
    /// Anonymous subscriber IDs: `$anon:` and a UUID, made by the app before the user signs in.
    public static let anonymousPrefix = AppUserID.anonymousPrefix

    /// The most one use may consume, and the most usage an access question may ask about.
    public static let maximumUsage = AccessGate.maximumUsage

    /// App user IDs are opaque strings chosen by the app (``AppUserID/problem``: the rule EntitleKit
    /// checks too).
    public static func validate(_ id: AppUserID) throws(ServiceError) {
        if let problem = id.problem { throw ServiceError(.invalidAppUserID, problem) }
    }

    /// Refuses an identifier Apple issues (a transaction or order ID) that isn't 1 to 64 ASCII letters and
    /// digits, before it is sent to Apple: `what` names it in the message ("transactionId is …").
    public static func checkAppleIdentifier(_ id: String, _ what: String) throws(ServiceError) {
        guard (1...64).contains(id.count), id.allSatisfy({ $0.isASCII && ($0.isNumber || $0.isLetter) }) else {
            throw ServiceError(.invalidRequest, "\(what) is 1 to 64 letters and digits")
        }
    }

    /// Refuses an instant a request gives outside the window every date of the ledger lies in
    /// (``AppStoreValueRanges/instants``), before any work: a year-9999 grant would reach every
    /// calendar and conversion downstream.
    public static func checkInstant(_ date: Date?, _ field: String) throws(ServiceError) {
        guard let date else { return }
        guard AppStoreValueRanges.instants.contains(date) else {
            throw ServiceError(.invalidRequest, "\(field) is outside \(AppStoreValueRanges.instantsDescription)")
        }
    }
}
