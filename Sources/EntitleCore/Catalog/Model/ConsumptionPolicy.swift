import Foundation

/// How the server answers Apple's CONSUMPTION_REQUEST notifications for an app that opted in.
public struct ConsumptionPolicy: Hashable, Sendable {
    /// Apple's refund preferences.
    public static let refundPreferences = ["GRANT_FULL", "DECLINE", "GRANT_PRORATED"]

    /// One of ``refundPreferences``, or none.
    public var refundPreference: String?

    public init(refundPreference: String? = nil) {
        self.refundPreference = refundPreference
    }
}
