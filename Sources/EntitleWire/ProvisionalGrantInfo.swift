import EntitleCore
import Foundation

/// The app's provisional grant policy (`policies.provisionalGrantHours`), signed into every answer so an
/// app offline right after a purchase knows what the purchase may grant and for how long.
public struct ProvisionalGrantInfo: Codable, Hashable, Sendable {
    /// How long a purchase the device verified grants before the server confirms it.
    public var hours: Int
    /// Each product's entitlements, as the catalog grants them.
    public var entitlements: [String: [String]]
    /// Each product's access level (its entitlements' together): what a provisional grant adds to the
    /// access gate. `nil` in answers from servers before it.
    public var access: [String: AccessLevel]?

    public init(hours: Int, entitlements: [String: [String]], access: [String: AccessLevel]? = nil) {
        self.hours = hours
        self.entitlements = entitlements
        self.access = access
    }
}
