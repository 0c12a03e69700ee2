import Foundation

/// What happens when an app user submits a purchase another app user already owns (a restore onto a
/// new account or install).
public enum RestorePolicy: String, Sendable, CaseIterable, Codable {
    /// The purchase stays with the subscriber it was first linked to; the newcomer is refused.
    case keepWithOriginal = "keep"
    /// The purchase moves to the subscriber who submitted it last (a reinstall, a new account); the
    /// move is recorded on both subscribers' timelines.
    case transferToNewest = "transfer"
}
