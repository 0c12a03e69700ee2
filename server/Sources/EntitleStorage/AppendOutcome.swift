import EntitleCore
import Foundation

/// What appending an event did.
public enum AppendOutcome: Hashable, Sendable {
    /// The event is new: stored at `sequence`, and applied to `appUserID`'s projection when it
    /// belongs to a subscriber (`nil`: held until its purchase is linked).
    case appended(sequence: Int64, appUserID: AppUserID?)
    /// An event with the same idempotency key is already stored; nothing changed.
    case duplicate
    /// The admission check refused the event against the subscriber's current projection; nothing
    /// changed.
    case refused
}
