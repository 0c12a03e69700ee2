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

    /// App user IDs are opaque strings chosen by the app: 1 to 200 bytes of printable text; an
    /// anonymous one is ``anonymousPrefix`` and a UUID.
    public static func validate(_ id: AppUserID) throws(ServiceError) {
        let appUserID = id.rawValue
        guard !appUserID.isEmpty else { throw ServiceError(.invalidAppUserID, "the app user ID is empty") }
        guard appUserID.utf8.count <= 200 else {
            throw ServiceError(.invalidAppUserID, "the app user ID is \(appUserID.utf8.count) bytes of UTF-8; at most 200")
        }
        guard appUserID.unicodeScalars.allSatisfy({ $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) }) else {
            throw ServiceError(.invalidAppUserID, "the app user ID holds a control character; it is printable text")
        }
        if appUserID.hasPrefix(anonymousPrefix), UUID(uuidString: String(appUserID.dropFirst(anonymousPrefix.count))) == nil {
            throw ServiceError(.invalidAppUserID, "an anonymous app user ID is \(anonymousPrefix) and a UUID")
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
