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
