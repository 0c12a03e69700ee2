import EntitleAPI
import EntitleCore
import EntitleWire
import Foundation

extension Entitle {
    /// Sets (or, with `nil`, clears) the user's attributes on the server: the documented ones (`email`,
    /// `displayName`, `locale`, `timeZone`) and the app's own (`"role": "teacher"`), which the catalog's
    /// targeting matches (docs/growth.md). Each is checked here by the server's own rule
    /// (EntitleCore's `CustomAttribute`) before any request; the customer info is fetched again after, and
    /// the offerings are asked for again next time (targeting may serve another).
    /// - Throws: ``EntitleError`` `request.invalid` for an attribute no server would take (a name, a
    ///   value, more than 50 of the app's own); the server's errors; `network` offline (nothing is queued).
    @discardableResult
    public func setAttributes(_ values: [String: String?]) async throws(EntitleError) -> CustomerInfo {
        let current = (try? await customerInfo(fetchPolicy: .cacheOnly))?.attributes ?? [:]
        if let problem = CustomAttribute.problem(setting: values, over: current) { throw EntitleError(.invalidRequest, problem) }
        do {
            _ = try await api.setAttributes(appUserID, values)
        } catch {
            throw Self.error(error)
        }
        // Targeting reads attributes: the offerings served before may not be this user's any more.
        offeringsCache = nil
        return try await customerInfo(fetchPolicy: .fetchCurrent)
    }

    /// The user's time zone (the device's, `TimeZone.current`, in an app): calendar quotas — Epilogue's
    /// two conversations a month — reset at the user's midnight instead of UTC's.
    @discardableResult
    public func setTimeZone(_ zone: TimeZone) async throws(EntitleError) -> CustomerInfo {
        try await setAttributes([SubscriberAttribute.timeZone.rawValue: zone.identifier])
    }
}
